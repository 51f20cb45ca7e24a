// A second host process's app on a booted stack's database and chain (no server: requests go to app.fetch), with its
// own short caches and LISTEN connection, as a replica behind a load balancer would have.
import { createApp } from "../../host/app.ts";
import { listenForPlatformChanges } from "../../host/db/platform-changes.ts";
import { createLogger } from "../../host/logger.ts";
import { startTimers } from "../../host/timers.ts";
import { ponderUrl } from "../../scripts/infra/ponder.ts";
import { composed, createPlatformContext, loadPlatformConfig } from "../../scripts/platform-context.ts";
import type { TestStack } from "./stack.ts";

export interface SecondHost {
  api(path: string, key: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

/** The app of a further host process (settings overridden, e.g. REQUEST_LOG_ENABLED=false) and how to stop it. */
export function secondHostApp(stack: TestStack, overrides: Record<string, string> = {}) {
  const config = loadPlatformConfig({ ...stack.env, ...overrides });
  // The platform's own URL (the embedded server's Unix socket), as a further host process of `npm start` gets it.
  const { databaseUrl } = stack.platform.parts;
  const { ctx, chains, index, db } = createPlatformContext(
    config,
    { ...stack.platform.parts, indexerUrl: ponderUrl(config.PONDER_PORT) },
    createLogger("warn"),
  );
  const timers = startTimers(composed.timers(ctx), createLogger("warn"));
  const changes = listenForPlatformChanges(databaseUrl);
  const app = createApp(ctx, composed, { db, chains, index, workerRunning: () => true }, changes);
  return {
    app,
    async stop() {
      await timers.stop();
      await changes.stop();
      await db.close();
    },
  };
}

export function secondHost(stack: TestStack): SecondHost {
  const { app, stop } = secondHostApp(stack);
  return {
    api(path, key, init = {}) {
      const headers = new Headers(init.headers);
      headers.set("x-api-key", key);
      return Promise.resolve(app.fetch(new Request(`http://second-host${path}`, { ...init, headers })));
    },
    stop,
  };
}
