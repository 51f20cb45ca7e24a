import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../../test/support/recording-logger.ts";
import { type Child, startChild } from "./child-process.ts";
import { createSupervisor } from "./supervisor.ts";

const dir = mkdtempSync(join(tmpdir(), "supervisor-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real process: one that runs until stopped, or one that exits at once with `code`. */
const node = (name: string, code?: number) =>
  startChild(
    name,
    process.execPath,
    ["-e", code === undefined ? "setInterval(() => {}, 1000)" : `process.exit(${code})`],
    { logFile: join(dir, `${name}.log`) },
  );
const alive = (pid: number | undefined) => {
  try {
    process.kill(pid as number, 0);
    return true;
  } catch {
    return false;
  }
};

describe("the supervisor", () => {
  it("restarts a killed part, tells why in its status, and leaves a part stopped on purpose stopped", async () => {
    const { logger, lines } = recordingLogger();
    const supervisor = createSupervisor(logger, { initialMs: 200, maxMs: 400, stableAfterMs: 60_000 });
    const first = node("sleeper");
    const part = supervisor.watch(first, async () => node("sleeper"));
    expect(supervisor.parts()).toEqual([{ name: "sleeper", state: "running", restarts: 0, lastExit: null }]);
    first.process.kill("SIGKILL");
    await expect.poll(() => part.status().state).toBe("restarting");
    expect(part.running()).toBe(false);
    await expect.poll(() => part.running()).toBe(true);
    const second = part.pid();
    expect(second).not.toBe(first.process.pid);
    expect(supervisor.parts()).toEqual([
      { name: "sleeper", state: "running", restarts: 1, lastExit: "signal SIGKILL" },
    ]);
    expect(lines).toMatchObject([
      {
        level: "warn",
        msg: "part exited; restarting it",
        fields: { part: "sleeper", reason: "signal SIGKILL", attempt: 1, inMs: 200 },
      },
      { level: "info", msg: "part restarted", fields: { part: "sleeper", pid: second } },
    ]);

    await part.stop();
    expect(alive(second)).toBe(false);
    await new Promise((r) => setTimeout(r, 500)); // longer than the backoff: no restart comes
    expect(part.status()).toEqual({ name: "sleeper", state: "stopped", restarts: 1, lastExit: "signal SIGKILL" });
    expect(lines).toHaveLength(2);
  });

  it("doubles the wait while the part keeps failing, up to the longest, and starts over once it stayed up", async () => {
    const { logger, lines } = recordingLogger();
    const supervisor = createSupervisor(logger, { initialMs: 50, maxMs: 200, stableAfterMs: 500 });
    let starts = 0;
    // The part exits at once, then fails to start twice, exits at once again, then stays up.
    const restart = async (): Promise<Child> => {
      starts += 1;
      if (starts <= 2) throw new Error("port in use\nmore detail");
      return starts === 3 ? node("flaky", 3) : node("flaky");
    };
    const part = supervisor.watch(node("flaky", 3), restart);
    await expect.poll(() => part.running() && starts === 4, { timeout: 5000 }).toBe(true);
    const waits = lines.filter((line) => line.level === "warn").map((line) => line.fields);
    expect(waits).toEqual([
      { part: "flaky", reason: "exit code 3", attempt: 1, inMs: 50 },
      { part: "flaky", reason: "start failed: port in use", attempt: 2, inMs: 100 },
      { part: "flaky", reason: "start failed: port in use", attempt: 3, inMs: 200 },
      { part: "flaky", reason: "exit code 3", attempt: 4, inMs: 200 },
    ]);
    expect(part.status()).toMatchObject({ state: "running", restarts: 4 });

    await new Promise((r) => setTimeout(r, 600)); // up longer than stableAfterMs: healthy again
    process.kill(part.pid() as number, "SIGTERM");
    await expect.poll(() => starts, { timeout: 5000 }).toBe(5);
    expect(lines.filter((line) => line.level === "warn").at(-1)?.fields).toEqual({
      part: "flaky",
      reason: "signal SIGTERM",
      attempt: 1,
      inMs: 50,
    });
    await part.stop();
  });

  it("keeps what a start function returned when it runs a process of ours, and stops it with its restarts", async () => {
    const { logger } = recordingLogger();
    const supervisor = createSupervisor(logger, { initialMs: 20, maxMs: 20, stableAfterMs: 60_000 });
    const started = await supervisor.keep(async () => {
      const child = node("server");
      return { url: "x", child, stop: () => child.stop() };
    });
    expect(started.url).toBe("x");
    started.child.process.kill("SIGKILL");
    await expect.poll(() => supervisor.parts()[0]).toMatchObject({ state: "running", restarts: 1 });
    await started.stop();
    expect(supervisor.parts()[0]?.state).toBe("stopped");
    // A part without a process of ours (an external database) is not watched.
    const external = await supervisor.keep(async () => ({ url: "y", stop: async () => {} }));
    expect(external.url).toBe("y");
    expect(supervisor.parts()).toHaveLength(1);
  });
});
