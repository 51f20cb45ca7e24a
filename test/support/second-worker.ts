// A second worker process (scripts/worker.ts) on a booted stack's database, as another machine's worker would run:
// same tasks, same crontab.
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { ponderUrl } from "../../scripts/infra/ponder.ts";
import type { RunningParts } from "../../scripts/platform-context.ts";
import { platformDbUrl, type TestStack } from "./stack.ts";

const ROOT = resolve(import.meta.dirname, "../..");

export interface SecondWorker {
  pid: number;
  stop(): Promise<void>;
}

export async function secondWorker(stack: TestStack): Promise<SecondWorker> {
  const parts: RunningParts = {
    ...stack.platform.parts,
    databaseUrl: platformDbUrl(stack.env),
    indexerUrl: ponderUrl(Number(stack.env.PONDER_PORT)),
  };
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", resolve(ROOT, "scripts/worker.ts")], {
    cwd: ROOT,
    env: { ...stack.env, PLATFORM_PARTS: JSON.stringify(parts) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  await new Promise<void>((ready, fail) => {
    child.once("message", () => ready());
    void exited.then(() => fail(new Error(`the second worker exited with code ${child.exitCode} during start`)));
  });
  return {
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
