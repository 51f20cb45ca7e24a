// Waiting for a row to reach a state without a tight polling loop: a NOTIFY for the row's key (any process's write)
// wakes the waiter to read it again; a slow fallback read covers a notification lost while the listener was down.
import type { ChannelListener } from "./notifications.ts";

/** The read between notifications: a safety net, not the way a change is seen. */
export const FALLBACK_READ_MS = 1_000;

export interface ChangeWait<T> {
  listener: ChannelListener;
  /** The key a notification names the row by (e.g. a transaction request's id). */
  key: string;
  read(): Promise<T>;
  done(value: T): boolean;
  /** Epoch milliseconds: the last read's value is answered then, done or not. */
  deadline: number;
  fallbackMs?: number;
}

/** Reads until `done` or the deadline; the answer is always the newest read. */
export async function waitForChange<T>(wait: ChangeWait<T>): Promise<T> {
  let notified = false;
  let wake: (() => void) | undefined;
  const onMessage = () => {
    notified = true;
    wake?.();
  };
  // Subscribed before the first read, so a change committed in between is not missed; a listener that cannot
  // connect (the database restarting) leaves the fallback reads.
  const unsubscribe = await wait.listener.subscribe(wait.key, onMessage).catch(() => undefined);
  try {
    for (;;) {
      notified = false;
      const value = await wait.read();
      const left = wait.deadline - Date.now();
      if (wait.done(value) || left <= 0) return value;
      if (notified) continue; // changed again while it was read
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, Math.min(left, wait.fallbackMs ?? FALLBACK_READ_MS));
      });
      clearTimeout(timer);
      wake = undefined;
    }
  } finally {
    unsubscribe?.();
  }
}
