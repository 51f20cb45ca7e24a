// The plugins' timers (process-local schedules, node-cron) in one host process: started with the host, and stopped
// with it: no new run, the running ones awaited, then each entry's stop() (e.g. a last flush). A run that finds the
// database down pauses its timer (backoff: its next due runs are skipped) and the outage is logged once per timer.
// A tick that comes while the last run still goes is skipped (at debug: a flush under load often outlasts its
// second, and the next run takes what it left); a run still going after SLOW_RUN_MS is logged at warn, once.
import cron, { type Logger as CronLogger } from "node-cron";
import { databaseOutage } from "./db/outage.ts";
import type { Logger } from "./logger.ts";
import type { TimerEntry } from "./plugin.ts";

export interface Timers {
  stop(): Promise<void>;
}

/** How long a run may go before it is logged at warn: a stuck run, not a busy one. */
export const SLOW_RUN_MS = 30_000;

/** node-cron's own messages, in the platform's structured log with the timer's name. */
function cronLogger(logger: Logger, timer: string): CronLogger {
  const fields = (err?: Error) => ({ timer, ...(err ? { error: String(err) } : {}) });
  return {
    info: (message) => logger.info(`node-cron: ${message}`, fields()),
    warn: (message) => logger.warn(`node-cron: ${message}`, fields()),
    error: (message, err) => logger.error(`node-cron: ${String(message)}`, fields(err)),
    debug: (message, err) => logger.debug(`node-cron: ${String(message)}`, fields(err)),
  };
}

export function startTimers(entries: TimerEntry[], logger: Logger, slowRunMs = SLOW_RUN_MS): Timers {
  for (const entry of entries) {
    if (!cron.validate(entry.schedule)) throw new Error(`Timer "${entry.name}": invalid schedule "${entry.schedule}"`);
  }
  const timers = entries.map((entry) => {
    const outage = databaseOutage(logger, `timer ${entry.name}`);
    let pausedUntil = 0;
    // The run in flight: a tick meanwhile is skipped here rather than by node-cron's noOverlap, which warns of each.
    let running: Promise<void> | undefined;
    const task = cron.schedule(
      entry.schedule,
      (context) => {
        if (Date.now() < pausedUntil) return;
        if (running) {
          logger.debug("timer tick skipped: the last run still goes", { timer: entry.name, at: context.date });
          return;
        }
        const slow = setTimeout(
          () => logger.warn("timer run is slow", { timer: entry.name, runningForMs: slowRunMs }),
          slowRunMs,
        ).unref();
        const run = entry
          .run()
          .then(() => outage.succeeded())
          .catch((error) => {
            const wait = outage.failed(error);
            if (wait !== undefined) pausedUntil = Date.now() + wait;
            else logger.warn("timer run failed", { timer: entry.name, error: String(error) });
          })
          .finally(() => {
            clearTimeout(slow);
            running = undefined;
          });
        running = run;
        return run;
      },
      // unref: a timer never keeps the process alive on its own.
      { name: entry.name, unref: true, logger: cronLogger(logger, entry.name) },
    );
    // A tick missed while the process was busy (a start, a burst) is run at the next one; not worth a warning a
    // second, as node-cron's own would print (coloured, outside the structured log).
    task.on("execution:missed", (context) =>
      logger.debug("timer tick missed", { timer: entry.name, at: context.date }),
    );
    return { task, inFlight: () => running };
  });
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        for (const { task } of timers) await task.destroy();
        await Promise.all(timers.map((timer) => timer.inFlight()));
        for (const entry of entries) {
          await entry
            .stop?.()
            .catch((error) => logger.warn("timer stop failed", { timer: entry.name, error: String(error) }));
        }
      })();
      return stopped;
    },
  };
}
