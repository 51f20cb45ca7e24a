// graphile-worker's log lines into the platform's logger (its info lines are debug here: one per job is noise).
import { Logger as WorkerLogger } from "graphile-worker";
import type { Logger } from "../logger.ts";

export function workerLogger(log: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    if (level === "error") log.error(message, meta);
    else if (level === "warning") log.warn(message, meta);
    else log.debug(message, meta);
  });
}
