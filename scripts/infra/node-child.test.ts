import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../../test/support/recording-logger.ts";
import { startChild } from "./child-process.ts";
import { keptUp, type NodeChild } from "./node-child.ts";
import { createSupervisor } from "./supervisor.ts";

const dir = mkdtempSync(join(tmpdir(), "node-child-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Node child that says it is ready with the port it was given (a port of 0 becomes 4000), as a host process does. */
function host(port: number): NodeChild<{ port: number }> {
  const script = `process.send({ port: ${port} || 4000 }); setInterval(() => {}, 1000);`;
  const child = startChild("host-2", process.execPath, ["-e", script], { logFile: join(dir, "host.log"), ipc: true });
  const ready = new Promise<{ port: number }>((resolve) => child.process.once("message", (m) => resolve(m as never)));
  return {
    child,
    ready,
    running: () => child.process.exitCode === null && child.process.signalCode === null,
    stop: () => child.stop(),
  };
}

describe("keptUp", () => {
  it("restarts a Node child once it was ready, with what its first ready message said", async () => {
    const supervisor = createSupervisor(recordingLogger().logger, { initialMs: 20, maxMs: 20, stableAfterMs: 60_000 });
    const ports: number[] = [];
    const kept = keptUp(supervisor, host(0), ({ port }) => {
      ports.push(port);
      return host(port);
    });
    expect(await kept.ready).toEqual({ port: 4000 });
    kept.child.process.kill("SIGKILL");
    await expect.poll(() => supervisor.parts()[0]).toMatchObject({ name: "host-2", state: "running", restarts: 1 });
    expect(ports).toEqual([4000]); // the restarted one takes the port the first one had
    expect(kept.running()).toBe(true);
    await kept.stop();
    expect(kept.running()).toBe(false);
    expect(supervisor.parts()[0]?.state).toBe("stopped");
  });
});
