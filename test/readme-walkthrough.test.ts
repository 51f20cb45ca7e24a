// README's curl walkthrough, then the recipe for issuing to verified investors (docs/recipes/verified-investors.md),
// each run as written against one booted stack, so neither can drift from the API. The recipe says it runs after the
// first session (its wallets and tokens are others): it runs second here.
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markedShBlock, type ShWorkDir, shWorkDir } from "./support/markdown-sh-block.ts";
import { bootStack, type TestStack } from "./support/stack.ts";

const MARKER = "<!-- walkthrough: the next sh block is run by test/readme-walkthrough.test.ts -->";
const RECIPE_MARKER = "<!-- recipe: the next sh block is run by test/readme-walkthrough.test.ts -->";
const UNVERIFIED = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const ONE = 10n ** 18n;

describe("README's first session with curl, then the verified-investors recipe", () => {
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

  it("runs docs/recipes/verified-investors.md as written after it: every write completes, then a transfer to an unverified wallet is refused", async () => {
    const result = await workDir.run(markedShBlock("docs/recipes/verified-investors.md", RECIPE_MARKER));
    expect(result.stderr).toBe("");
    expect(result.code, result.stdout).toBe(0);
    const bodies = result.bodies();

    // Every answer before the refused transfer is a success; writes answer COMPLETED.
    const refusedAt = bodies.findIndex((b) => b.code !== undefined);
    for (const body of bodies.slice(0, refusedAt)) {
      expect(body.code, JSON.stringify(body)).toBeUndefined();
      if (body.data?.transactionId) expect(body.data.status, JSON.stringify(body)).toBe("COMPLETED");
    }
    const kinds = bodies.map((b) => b.data?.kind).filter(Boolean);
    expect(kinds).toEqual(
      expect.arrayContaining(["topicScheme.register", "claimIssuer.create", "trustedIssuer.add", "claim.issue"]),
    );

    const bond = bodies.find((b) => b.data?.symbol === "GB30").data;
    expect(bond.features.map((f: { id: string }) => f.id)).toEqual(["historical-balances", "maturity-redemption"]);
    expect(bond.compliance.modules.map((m: { typeId: string }) => m.typeId).sort()).toEqual([
      "country-allow-list-v2",
      "identity-verification-v2",
    ]);

    const precheck = bodies[refusedAt - 1];
    expect(precheck.data).toMatchObject({
      allowed: false,
      refusal: {
        code: "COMPLIANCE_CHECK_FAILED",
        typeId: "identity-verification-v2",
        reason: "recipient not verified",
      },
    });
    const refused = bodies[refusedAt];
    expect(refused).toMatchObject({
      code: "COMPLIANCE_CHECK_FAILED",
      status: 422,
      data: {
        typeId: "identity-verification-v2",
        reason: "recipient not verified",
        contractError: { id: "ComplianceCheckFailed" },
        statusUrl: expect.stringMatching(/^\/v2\/transaction-requests\//),
      },
    });

    const holders = bodies[refusedAt + 1];
    expect(refusedAt + 2).toBe(bodies.length);
    expect(holders.data.map((h: { value: string }) => h.value)).toEqual([
      String(90n * ONE),
      String(50n * ONE),
      String(10n * ONE),
    ]);
    expect(holders.data.map((h: { account: { id: string } }) => getAddress(h.account.id))).not.toContain(UNVERIFIED);
  });
});
