// Tells this process when the platform rows behind its short caches change, in any process: triggers on those
// tables NOTIFY platform_changed (migration 0011), and this LISTEN connection counts the notifications. A cache entry
// is good only while the count is the one it was read under; while the connection is down, nothing is cached.
import pg from "pg";

export const CHANGES_CHANNEL = "platform_changed";
const RECONNECT_MS = 1000;

export interface PlatformChanges {
  /** Changes seen so far, or null while not listening (then nothing may be cached). */
  generation(): number | null;
  stop(): Promise<void>;
}

/** This process's listeners: a write made here counts as a change at once (host/db/local-platform-changes.ts). */
const localListeners = new Set<() => void>();

export function noteLocalPlatformChange(): void {
  for (const bump of localListeners) bump();
}

export function listenForPlatformChanges(url: string): PlatformChanges {
  let generation = 0;
  let listening = false;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const bump = () => {
    generation += 1;
  };

  const lost = () => {
    listening = false;
    bump(); // whatever was read before the gap may be stale
    client?.end().catch(() => {});
    client = undefined;
    if (!stopped && !retry) retry = setTimeout(connect, RECONNECT_MS);
  };
  async function connect() {
    retry = undefined;
    const next = new pg.Client({ connectionString: url });
    const gone = () => next === client && lost(); // a replaced client's last events change nothing
    next.on("error", gone);
    next.on("end", gone);
    next.on("notification", bump);
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${CHANGES_CHANNEL}`);
      if (stopped) return void next.end().catch(() => {});
      bump();
      listening = true;
    } catch {
      gone();
    }
  }
  void connect();
  localListeners.add(bump);

  return {
    generation: () => (listening ? generation : null),
    async stop() {
      localListeners.delete(bump);
      stopped = true;
      listening = false;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
