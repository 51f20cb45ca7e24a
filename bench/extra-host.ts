// A further host process's app on a booted stack's database and chain, served on a free loopback port, with its
// settings overridden (e.g. REQUEST_LOG_ENABLED=false): two such hosts compare one setting under the same load.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "../host/app.ts";
import { loadConfig } from "../host/config.ts";
import { listenForPlatformChanges } from "../host/db/platform-changes.ts";
import { createLogger } from "../host/logger.ts";
import { startTimers } from "../host/timers.ts";
import { ponderUrl } from "../scripts/infra/ponder.ts";
import { composed, createPlatformContext } from "../scripts/platform-context.ts";
import { platformDbUrl, type TestStack } from "../test/support/stack.ts";

export async function startExtraHost(stack: TestStack, overrides: Record<string, string>) {
  const config = loadConfig({ ...stack.env, ...overrides });
  const databaseUrl = platformDbUrl(stack.env);
  const { credentials, manifest } = stack.platform;
  const logger = createLogger("warn");
  const { ctx, chain, index, db } = createPlatformContext(
    config,
    {
      databaseUrl,
      rpcUrl: credentials.rpcUrl,
      chainId: credentials.chainId,
      systemFactory: manifest.systemFactory,
      entryPoint: manifest.entryPoint,
      smartAccountFactory: manifest.smartAccountFactory,
      paymasterFactory: manifest.paymasterFactory,
      indexerUrl: ponderUrl(config.PONDER_PORT),
    },
    logger,
  );
  const timers = startTimers(composed.timers(ctx), logger);
  const changes = listenForPlatformChanges(databaseUrl);
  const app = createApp(ctx, composed, { db, chain, index, workerRunning: () => true }, changes);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await timers.stop();
      await changes.stop();
      await db.close();
    },
  };
}
