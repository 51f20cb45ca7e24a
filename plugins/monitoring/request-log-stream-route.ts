// GET .../request-logs/stream: server-sent events, one `request-log` event per new request of the caller's
// organisation as any host process flushes it (LISTEN/NOTIFY); no replay.
import { createRoute } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import type { ChannelListener } from "../../host/db/notifications.ts";
import type { App } from "../../host/http/env.ts";
import { errorResponses } from "../../host/http/schemas.ts";
import type { LogItem } from "./log-item.ts";
import type { LogNotice } from "./recorder.ts";
import { monitoringGet } from "./route-shapes.ts";

/** A comment line now and then keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

const streamRoute = createRoute({
  ...monitoringGet(
    "/request-logs/stream",
    "Server-sent events: one `request-log` event per new request of the organisation (no replay)",
  ),
  responses: {
    200: { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
    ...errorResponses,
  },
});

/** One recorded request as its server-sent event. */
export const logEvent = (item: LogItem) => `event: request-log\nid: ${item.id}\ndata: ${JSON.stringify(item)}\n\n`;

/** `stream`: every process's flushed logs, by organisation. Mounted before /request-logs/{id}, which would match. */
export function requestLogStreamRoute(app: App, stream: ChannelListener) {
  app.openapi(streamRoute, async (c) => {
    const { organizationId } = c.get("principal");
    const pending: LogItem[] = [];
    let deliver: ((item: LogItem) => void) | undefined;
    const unsubscribe = await stream.subscribe(organizationId, (payload) => {
      if (payload === null) return; // no replay: a reconnection brings nothing back
      const { organizationId: _, ...item } = JSON.parse(payload) as LogNotice;
      if (deliver) deliver(item);
      else pending.push(item);
    });
    return streamSSE(c, async (sse) => {
      let writing = Promise.resolve();
      const write = (text: string) => {
        writing = writing
          .then(() => sse.write(text))
          .then(
            () => {},
            () => {},
          );
      };
      deliver = (item) => write(logEvent(item));
      write(": listening\n\n");
      for (const item of pending.splice(0)) deliver(item);
      const keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
      await new Promise<void>((resolve) => sse.onAbort(resolve));
      clearInterval(keepalive);
      unsubscribe();
    }) as never;
  });
}
