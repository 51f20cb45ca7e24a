import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "child-process-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Gone, or a zombie no one has reaped yet (it has exited: it holds no port, no file, no memory). */
function gone(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return true;
  return readFileSync(stat, "utf8").split(") ")[1]?.startsWith("Z") ?? true;
}

describe("a child the supervisor started", () => {
  it.skipIf(!existsSync("/usr/bin/setpriv"))("stops when the supervisor is killed outright (SIGKILL)", async () => {
    // A stand-in supervisor: starts a long-running program as the platform starts anvil or PostgreSQL.
    const module = resolve(import.meta.dirname, "child-process.ts");
    const script = `
      import { startChild } from ${JSON.stringify(module)};
      const child = startChild("sleeper", "sleep", ["1000"], { logFile: ${JSON.stringify(join(dir, "sleeper.log"))} });
      process.stdout.write(String(child.process.pid) + "\\n");
      setInterval(() => {}, 1000);`;
    const supervisor = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const pid = await new Promise<number>((r) => supervisor.stdout.once("data", (d) => r(Number(String(d).trim()))));
    expect(execFileSync("ps", ["-o", "comm=", "-p", String(pid)], { encoding: "utf8" }).trim()).toBe("sleep");
    supervisor.kill("SIGKILL");
    await expect.poll(() => gone(pid), { timeout: 5000 }).toBe(true);
  });
});
