// A Node process of the platform's own (a worker, a further host) started with the running parts in PLATFORM_PARTS:
// it says it is ready over IPC (its first message), dies with the supervisor, and is restarted when it crashes.
import { join, resolve } from "node:path";
import type { Config } from "../../host/config.ts";
import type { RunningParts } from "../platform-context.ts";
import { type Child, startChild } from "./child-process.ts";
import { compileCacheEnv } from "./compile-cache.ts";
import type { SupervisedPart, Supervisor } from "./supervisor.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const START_TIMEOUT_MS = 60_000;

export interface NodeChild<M> {
  child: Child;
  /** The child's first message; rejects when it exits or stays silent first. */
  ready: Promise<M>;
  running(): boolean;
  stop(): Promise<void>;
}

export function startNodeChild<M>(options: {
  /** Its name in logs/<name>.log and run/<name>.pid. */
  name: string;
  /** The script under scripts/. */
  script: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  parts: RunningParts;
  extraEnv?: Record<string, string>;
}): NodeChild<M> {
  const { name, config } = options;
  const logFile = join(config.dataDir, "logs", `${name}.log`);
  const child = startChild(name, process.execPath, ["--import", "tsx", join(ROOT, "scripts", options.script)], {
    cwd: ROOT,
    env: {
      ...options.env,
      ...compileCacheEnv(options.env),
      ...options.extraEnv,
      PLATFORM_PARTS: JSON.stringify(options.parts),
    },
    logFile,
    dataDir: config.dataDir,
    ipc: true,
  });
  const ready = new Promise<M>((resolveReady, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`The ${name} process did not start in ${START_TIMEOUT_MS / 1000} s; see ${logFile}`)),
      START_TIMEOUT_MS,
    );
    child.process.once("message", (message) => {
      clearTimeout(timer);
      resolveReady(message as M);
    });
    void child.exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`The ${name} process exited with code ${code} during start; see ${logFile}`));
    });
  });
  ready.catch(() => {}); // awaited by the supervisor; never an unhandled rejection meanwhile
  return {
    child,
    ready,
    running: () => child.process.exitCode === null && child.process.signalCode === null,
    stop: () => child.stop(),
  };
}

/**
 * Keeps a Node child up once it said it is ready: after an exit it was not told to make, `again` (given the first's
 * ready message, e.g. its port) starts a replacement, whose readiness the supervisor awaits.
 */
export function keptUp<M>(
  supervisor: Supervisor,
  first: NodeChild<M>,
  again: (firstReady: M) => NodeChild<M>,
): NodeChild<M> {
  let part: SupervisedPart | undefined;
  const ready = first.ready.then((message) => {
    part = supervisor.watch(first.child, async () => {
      const next = again(message);
      try {
        await next.ready;
      } catch (error) {
        await next.stop(); // it stayed silent: not left running beside the next attempt
        throw error;
      }
      return next.child;
    });
    return message;
  });
  ready.catch(() => {}); // awaited by the supervisor; never an unhandled rejection meanwhile
  return {
    child: first.child,
    ready,
    running: () => part?.running() ?? first.running(),
    stop: () => (part ?? first).stop(),
  };
}
