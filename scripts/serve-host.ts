// Serves the Hono host on a port: the supervisor's own host and each further host process (scripts/host.ts) do it the
// same way, each with its own short caches and LISTEN connection.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "../host/app.ts";
import type { Config } from "../host/config.ts";
import { listenForPlatformChanges } from "../host/db/platform-changes.ts";
import { answerClientErrors, serverTimeouts } from "../host/http/client-errors.ts";
import type { HostContext } from "../host/plugin.ts";
import type { Readiness } from "../host/readiness.ts";
import { composed } from "./platform-context.ts";

/** How long a stop waits for open responses (event streams) before it closes their connections. */
const STREAM_GRACE_MS = 2000;

export interface ServedHost {
  port: number;
  stop(): Promise<void>;
}

export async function serveHost(options: {
  ctx: HostContext;
  readiness: Readiness;
  config: Config;
  databaseUrl: string;
  port: number;
}): Promise<ServedHost> {
  const { ctx, config } = options;
  const changes = listenForPlatformChanges(options.databaseUrl);
  const app = createApp(ctx, composed, options.readiness, changes);
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolveServer, reject) => {
      const s = serve(
        {
          fetch: app.fetch,
          port: options.port,
          hostname: config.HOST,
          serverOptions: serverTimeouts(config.REQUEST_TIMEOUT_SECONDS),
        },
        () => resolveServer(s),
      );
      s.once("error", reject);
      answerClientErrors(s as Server);
    });
  } catch (error) {
    await changes.stop();
    throw error;
  }
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      await new Promise<void>((r) => {
        server.close(() => r());
        // An open event stream (monitoring, deployments) never ends by itself: cut what is left after a grace.
        setTimeout(() => (server as Server).closeAllConnections(), STREAM_GRACE_MS).unref();
      });
      await changes.stop();
    },
  };
}
