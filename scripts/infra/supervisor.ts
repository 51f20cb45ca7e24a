// Keeps the platform's child processes up: a part that exits without being told to (a crash, a kill, the OOM killer)
// is started again after a backoff (0.5 s doubling to 30 s, back to 0.5 s once it has stayed up a minute; the platform
// sets the first wait from RESTART_BACKOFF_SECONDS), and each exit is logged with its reason and attempt. A part
// stopped on purpose (its stop()) stays stopped. /readyz shows every part's state (Readiness.parts).
import { type BackoffPolicy, backoffDelay, interruptibleSleep } from "../../host/backoff.ts";
import type { Logger } from "../../host/logger.ts";
import type { PartStatus } from "../../host/readiness.ts";
import type { Child } from "./child-process.ts";

export interface RestartPolicy extends BackoffPolicy {
  /** A part up this long is healthy again: its next crash restarts it after the shortest wait. */
  stableAfterMs: number;
}

export const RESTART_POLICY: RestartPolicy = { initialMs: 500, maxMs: 30_000, stableAfterMs: 60_000 };

export interface SupervisedPart {
  name: string;
  status(): PartStatus;
  /** Up now (not exited, not waiting to be restarted, not stopped). */
  running(): boolean;
  /** The running process's id (the last one while it is restarted). */
  pid(): number | undefined;
  /** Stops the part and its restarts: with `how` (e.g. a clean stop that saves first), else its process's stop. */
  stop(how?: () => Promise<void>): Promise<void>;
}

export interface Supervisor {
  /** Watches a started part: after an exit it was not told to make, `restart` starts it anew (resolving once up). */
  watch(first: Child, restart: () => Promise<Child>): SupervisedPart;
  /**
   * Starts a part with `start` and keeps it up when it runs a child of ours (`child`: an embedded server), restarting
   * it with `start` again; the returned stop() stops it and its restarts. Without a child it is returned as is.
   */
  keep<T extends { child?: Child; stop(): Promise<void> }>(start: () => Promise<T>): Promise<T>;
  /** Every watched part, in the order they were watched. */
  parts(): PartStatus[];
}

/** Why a process ended, in a few words. */
export function exitReason(child: Child): string {
  const { exitCode, signalCode } = child.process;
  return signalCode ? `signal ${signalCode}` : `exit code ${exitCode}`;
}

export function createSupervisor(logger: Logger, policy: RestartPolicy = RESTART_POLICY): Supervisor {
  const watched: SupervisedPart[] = [];
  const watch = (first: Child, restart: () => Promise<Child>) => {
    const part = supervise(first, restart, logger, policy);
    watched.push(part);
    return part;
  };
  return {
    watch,
    async keep(start) {
      const started = await start();
      if (!started.child) return started;
      let latest = started;
      const part = watch(started.child, async () => {
        const again = await start();
        if (!again.child) throw new Error(`${started.child?.name} started again without a process of its own`);
        latest = again;
        return again.child;
      });
      // The latest start's own stop (an embedded chain saves its state first), with restarts stopped before it.
      return { ...started, stop: () => part.stop(() => latest.stop()) };
    },
    parts: () => watched.map((part) => part.status()),
  };
}

function supervise(first: Child, restart: () => Promise<Child>, logger: Logger, policy: RestartPolicy): SupervisedPart {
  const name = first.name;
  let current = first;
  let state: PartStatus["state"] = "running";
  let restarts = 0;
  let lastExit: string | null = null;
  let attempt = 0;
  let upSince = Date.now();
  let stopping = false;
  const { sleep, wake } = interruptibleSleep();

  /** Restarts the part after each exit, until it is stopped; a failed start counts as another attempt. */
  async function keepUp() {
    for (;;) {
      await current.exited;
      if (stopping) return;
      lastExit = exitReason(current);
      if (Date.now() - upSince >= policy.stableAfterMs) attempt = 0;
      for (;;) {
        attempt += 1;
        const delay = backoffDelay(policy, attempt);
        state = "restarting";
        logger.warn("part exited; restarting it", { part: name, reason: lastExit, attempt, inMs: delay });
        await sleep(delay);
        if (stopping) return;
        restarts += 1;
        try {
          const next = await restart();
          if (stopping) return void (await next.stop());
          current = next;
          upSince = Date.now();
          state = "running";
          logger.info("part restarted", { part: name, attempt, pid: next.process.pid });
          break;
        } catch (error) {
          lastExit = `start failed: ${String(error instanceof Error ? error.message : error).split("\n")[0]}`;
        }
      }
    }
  }
  const supervising = keepUp().catch((error) =>
    logger.error("supervising failed", { part: name, error: String(error) }),
  );

  return {
    name,
    status: () => ({ name, state: stopping ? "stopped" : state, restarts, lastExit }),
    running: () =>
      !stopping && state === "running" && current.process.exitCode === null && current.process.signalCode === null,
    pid: () => current.process.pid,
    async stop(how) {
      stopping = true;
      wake();
      await (how ?? (() => current.stop()))();
      await current.stop(); // done already when `how` stopped it
      await supervising; // a restart in flight finishes, then stops what it started
    },
  };
}
