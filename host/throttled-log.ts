// A warning that can come tens of times a second (each call a node under overload did not answer) is logged at most
// once per interval and key: the first at once, each later one only once the interval has passed, with how many like
// it were left out meanwhile. The log stays readable through an outage, and its first line is never late.
import type { Logger } from "./logger.ts";

/** How often one kind of repeated warning is logged at most. */
export const THROTTLED_WARNING_INTERVAL_MS = 10_000;

export type ThrottledWarn = (key: string, msg: string, fields?: Record<string, unknown>) => void;

export function throttledWarnings(
  logger: Logger,
  intervalMs = THROTTLED_WARNING_INTERVAL_MS,
  now: () => number = Date.now,
): ThrottledWarn {
  const last = new Map<string, { at: number; leftOut: number }>();
  return (key, msg, fields = {}) => {
    const at = now();
    const previous = last.get(key);
    if (previous && at - previous.at < intervalMs) {
      previous.leftOut += 1;
      return;
    }
    const leftOut = previous?.leftOut ?? 0;
    logger.warn(msg, leftOut > 0 ? { ...fields, leftOut, leftOutSeconds: (at - previous!.at) / 1000 } : fields);
    last.set(key, { at, leftOut: 0 });
  };
}
