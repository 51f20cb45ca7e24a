// A PostgreSQL LISTEN channel fanned out to this process's subscribers by payload (e.g. a deployment id), so a change
// written by any process reaches every host's streams. The connection is opened for the first subscriber and closed
// after the last: streams are few and short, and no idle connection outlives them (or keeps a stopping process up).
import pg from "pg";

const RECONNECT_MS = 1000;

export interface ChannelListener {
  /** Calls `wake` on each notification whose payload is `key`, and on every (re)connection (a gap may hide one). */
  subscribe(key: string, wake: () => void): () => void;
}

export function listenChannel(pool: pg.Pool, channel: string): ChannelListener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  const subscribers = new Map<string, Set<() => void>>();
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const wakeAll = () => {
    for (const set of subscribers.values()) for (const wake of set) wake();
  };
  const close = () => {
    clearTimeout(retry);
    retry = undefined;
    client?.end().catch(() => {});
    client = undefined;
  };
  function connect() {
    retry = undefined;
    const next = new pg.Client(pool.options);
    const lost = () => {
      if (next !== client) return;
      close();
      if (subscribers.size > 0) retry = setTimeout(connect, RECONNECT_MS);
    };
    next.on("error", lost);
    next.on("end", lost);
    next.on("notification", (message) => {
      for (const wake of subscribers.get(message.payload ?? "") ?? []) wake();
    });
    client = next;
    next
      .connect()
      .then(() => next.query(`listen ${channel}`))
      .then(() => next === client && wakeAll(), lost);
  }

  return {
    subscribe(key, wake) {
      const set = subscribers.get(key) ?? new Set();
      set.add(wake);
      subscribers.set(key, set);
      if (!client && !retry) connect();
      return () => {
        set.delete(wake);
        if (set.size === 0) subscribers.delete(key);
        if (subscribers.size === 0) close();
      };
    },
  };
}
