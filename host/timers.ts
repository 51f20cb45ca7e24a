// The plugins' timers (process-local schedules, node-cron) in one host process: started with the host, and stopped
// with it: no new run, the running ones awaited, then each entry's stop() (e.g. a last flush).
import cron from "node-cron";
import type { Logger } from "./logger.ts";
import type { TimerEntry } from "./plugin.ts";

export interface Timers {
  stop(): Promise<void>;
}

export function startTimers(entries: TimerEntry[], logger: Logger): Timers {
  for (const entry of entries) {
    if (!cron.validate(entry.schedule)) throw new Error(`Timer "${entry.name}": invalid schedule "${entry.schedule}"`);
  }
  const running = new Set<Promise<void>>();
  const tasks = entries.map((entry) =>
    cron.schedule(
      entry.schedule,
      () => {
        const run = entry
          .run()
          .catch((error) => logger.warn("timer run failed", { timer: entry.name, error: String(error) }))
          .finally(() => running.delete(run));
        running.add(run);
        return run;
      },
      // unref: a timer never keeps the process alive on its own.
      { name: entry.name, noOverlap: true, unref: true },
    ),
  );
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        for (const task of tasks) await task.destroy();
        await Promise.all(running);
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
