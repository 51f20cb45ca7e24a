// One LISTEN connection per host process (opened with the first stream client, reopened if lost) fans the request
// logs every process's flush NOTIFYs out to this process's stream clients of the same organisation. No replay: a
// client sees what is committed while it listens.
import pg from "pg";
import type { Logger } from "../../host/logger.ts";
import type { LogItem } from "./log-item.ts";
import { LOG_CHANNEL, type LogNotice } from "./recorder.ts";

const RECONNECT_MS = 1000;

export interface LogStream {
  /** Resolves once the connection listens (so whatever commits next reaches `send`); returns the unsubscribe. */
  subscribe(organizationId: string, send: (item: LogItem) => void): Promise<() => void>;
  stop(): Promise<void>;
}

export function createLogStream(connection: pg.ClientConfig, logger: Logger): LogStream {
  const clients = new Map<string, Set<(item: LogItem) => void>>();
  let client: pg.Client | undefined;
  let listening: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  const deliver = (payload: string | undefined) => {
    if (!payload) return;
    let parsed: LogNotice;
    try {
      parsed = JSON.parse(payload) as LogNotice;
    } catch {
      return;
    }
    const { organizationId, ...item } = parsed;
    for (const send of clients.get(organizationId) ?? []) send(item);
  };

  function listen(): Promise<void> {
    listening ??= (async () => {
      const next = new pg.Client(connection);
      const lost = () => {
        if (next !== client) return;
        client = undefined;
        listening = undefined;
        next.end().catch(() => {});
        if (!stopped && !retry) {
          logger.warn("request log stream connection lost; reconnecting");
          retry = setTimeout(() => {
            retry = undefined;
            if (clients.size > 0) void listen().catch(() => {});
          }, RECONNECT_MS);
        }
      };
      next.on("error", lost);
      next.on("end", lost);
      next.on("notification", (message) => deliver(message.payload));
      client = next;
      try {
        await next.connect();
        await next.query(`listen ${LOG_CHANNEL}`);
      } catch (error) {
        lost();
        throw error;
      }
    })();
    return listening;
  }

  return {
    async subscribe(organizationId, send) {
      const set = clients.get(organizationId) ?? new Set();
      clients.set(organizationId, set);
      set.add(send);
      const unsubscribe = () => {
        set.delete(send);
        if (set.size === 0) clients.delete(organizationId);
      };
      try {
        await listen();
      } catch (error) {
        unsubscribe();
        throw error;
      }
      return unsubscribe;
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
