// README's curl walkthrough, run as written against a booted stack, so the README cannot drift from the API.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootStack, type TestStack } from "./support/stack.ts";

const MARKER = "<!-- walkthrough: the next sh block is run by test/readme-walkthrough.test.ts -->";

/** The sh block that follows README's walkthrough marker. */
function walkthroughBlock(readme: string): string {
  const at = readme.indexOf(MARKER);
  if (at < 0) throw new Error("README has no walkthrough marker");
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error("no sh block after README's walkthrough marker");
  return block[1];
}

function run(
  script: string,
  cwd: string,
  path: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd,
      env: { ...process.env, PATH: path },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 170_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe("README's first session with curl", () => {
  let stack: TestStack;
  let workDir: string;
  beforeAll(async () => {
    stack = await bootStack();
    // The walkthrough runs from a clone whose ./.data is the platform's data folder.
    workDir = mkdtempSync(join(tmpdir(), "readme-walkthrough-"));
    symlinkSync(stack.dataDir, join(workDir, ".data"));
    // The same curl, made to fail on an HTTP error (so `set -e` stops there) and to end each body with a newline.
    const bin = join(workDir, "bin");
    execFileSync("mkdir", [bin]);
    const realCurl = execFileSync("bash", ["-c", "command -v curl"]).toString().trim();
    writeFileSync(join(bin, "curl"), `#!/bin/sh\nexec ${realCurl} --fail-with-body -w '\\n' "$@"\n`);
    chmodSync(join(bin, "curl"), 0o755);
  });
  afterAll(async () => {
    await stack?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("runs every command as written, each answered without an error", async () => {
    const script = walkthroughBlock(readFileSync(resolve(import.meta.dirname, "../README.md"), "utf8"));
    const result = await run(script, workDir, `${join(workDir, "bin")}:${process.env.PATH}`);
    expect(result.stderr).toBe("");
    expect(result.code, result.stdout).toBe(0);

    const bodies = result.stdout
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line));
    for (const body of bodies) expect(body.code, JSON.stringify(body)).toBeUndefined();

    // What the walkthrough did is what the API now shows.
    const [templates, token] = bodies;
    expect(templates.data.map((t: { id: string }) => t.id)).toContain("deposit");
    expect(token.data).toMatchObject({ name: "Euro Deposit", symbol: "EURD", decimals: 2 });
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
