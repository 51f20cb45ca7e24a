// A PostgreSQL LISTEN channel fanned out to this process's subscribers by a key read from each payload (e.g. a
// deployment id, an organisation), so a change written by any process reaches every host's streams. The connection
// is opened for the first subscriber and closed after the last: streams come and go, and no idle connection outlives
// them (or keeps a stopping process up).
import type pg from "pg";
import pgModule from "pg";

const RECONNECT_MS = 1000;

/** A notification's payload, or null on a (re)connection: a gap may have hidden some, read the state again. */
export type ChannelMessage = (payload: string | null) => void;

export interface ChannelListener {
  /** Resolves once the connection listens (whatever commits next reaches `onMessage`); returns the unsubscribe. */
  subscribe(key: string, onMessage: ChannelMessage): Promise<() => void>;
}

/** `keyOf` routes a payload to its subscribers (default: the payload itself); undefined drops it. */
export function listenChannel(
  connection: pg.ClientConfig,
  channel: string,
  keyOf: (payload: string) => string | undefined = (payload) => payload,
): ChannelListener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  const subscribers = new Map<string, Set<ChannelMessage>>();
  let client: pg.Client | undefined;
  let listening: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;

  const close = () => {
    clearTimeout(retry);
    retry = undefined;
    listening = undefined;
    client?.end().catch(() => {});
    client = undefined;
  };
  const deliver = (payload: string) => {
    let key: string | undefined;
    try {
      key = keyOf(payload);
    } catch {
      return;
    }
    for (const onMessage of (key !== undefined && subscribers.get(key)) || []) onMessage(payload);
  };
  function connect(): Promise<void> {
    retry = undefined;
    const next = new pgModule.Client(connection);
    const lost = () => {
      if (next !== client) return;
      close();
      if (subscribers.size > 0) retry = setTimeout(() => void connect().catch(() => {}), RECONNECT_MS);
    };
    next.on("error", lost);
    next.on("end", lost);
    next.on("notification", (message) => deliver(message.payload ?? ""));
    client = next;
    listening = next
      .connect()
      .then(() => next.query(`listen ${channel}`))
      .then(
        () => {
          if (next !== client) return;
          for (const set of subscribers.values()) for (const onMessage of set) onMessage(null);
        },
        (error) => {
          lost();
          throw error;
        },
      );
    return listening;
  }

  return {
    async subscribe(key, onMessage) {
      const set = subscribers.get(key) ?? new Set();
      set.add(onMessage);
      subscribers.set(key, set);
      const unsubscribe = () => {
        set.delete(onMessage);
        if (set.size === 0) subscribers.delete(key);
        if (subscribers.size === 0) close();
      };
      try {
        await (listening ?? (retry ? undefined : connect()));
      } catch (error) {
        unsubscribe();
        throw error;
      }
      return unsubscribe;
    },
  };
}
