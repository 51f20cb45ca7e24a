// README's curl walkthrough, run as written against a booted stack, so the README cannot drift from the API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markedShBlock, type ShWorkDir, shWorkDir } from "./support/markdown-sh-block.ts";
import { bootStack, type TestStack } from "./support/stack.ts";

const MARKER = "<!-- walkthrough: the next sh block is run by test/readme-walkthrough.test.ts -->";

describe("README's first session with curl", () => {
  let stack: TestStack;
  let workDir: ShWorkDir;
  beforeAll(async () => {
    stack = await bootStack();
    workDir = shWorkDir(stack, "readme-walkthrough");
  });
  afterAll(async () => {
    await stack?.stop();
    workDir?.remove();
  });

  it("runs every command as written, each answered without an error", async () => {
    const result = await workDir.run(markedShBlock("README.md", MARKER));
    expect(result.stderr).toBe("");
    expect(result.code, result.stdout).toBe(0);

    const bodies = result.bodies();
    for (const body of bodies) expect(body.code, JSON.stringify(body)).toBeUndefined();

    // What the walkthrough did is what the API now shows.
    const [templates, token] = bodies;
    expect(templates.data.map((t: { id: string }) => t.id)).toContain("deposit");
    expect(token.data).toMatchObject({ name: "Euro Deposit", symbol: "EURD", decimals: 2 });
    // Balances through v2 are raw units (EURD has 2 decimals), through the legacy route human units.
    const rawHolders = bodies.find((b) => Array.isArray(b.data) && b.data[0]?.account?.id !== undefined);
    expect(rawHolders.data.map((h: { value: string }) => h.value)).toEqual(["150050", "25"]);
    const holders = bodies.find((b) => b.token?.balances);
    expect(holders.totalCount).toBe(2);
    expect(holders.token.balances.map((b: { value: string }) => b.value).sort()).toEqual(["0.25", "1500.5"]);
    const entities = bodies.find((b) => Array.isArray(b.data) && b.data[0]?.contractName !== undefined);
    expect(entities.data).toEqual([
      expect.objectContaining({ contractName: "Euro Deposit", status: "registered", country: "BE" }),
    ]);
    const [created, keys] = bodies.slice(-2);
    expect(created.data).toMatchObject({ name: "dashboard", scope: "read", key: expect.stringMatching(/^svc_/) });
    expect(keys.data.map((k: { name: string }) => k.name)).toEqual(expect.arrayContaining(["bootstrap", "dashboard"]));
    expect(JSON.stringify(keys)).not.toContain(created.data.key);
  });
});
