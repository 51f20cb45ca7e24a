import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Hex } from "viem";
import { type Config, loadConfig, reorgDepth } from "../host/config.ts";
import { dropChainViews } from "../host/db/chain-views.ts";
import { openDatabases } from "../host/db/database.ts";
import { migrate } from "../host/db/migrations.ts";
import { startIndexLifecycle } from "../host/events/index-lifecycle.ts";
import { createLogger } from "../host/logger.ts";
import { readinessReport } from "../host/readiness.ts";
import { startTimers } from "../host/timers.ts";
import type { IndexChainSource } from "../src/index-chains.ts";
import { bootstrap, type Credentials } from "./bootstrap.ts";
import { compileContracts } from "./contracts/compile.ts";
import { canonicalEntryPoint, type DeploymentManifest, ensureDeployment } from "./contracts/deploy.ts";
import { ANVIL_FUNDER_KEY, startChain } from "./infra/anvil.ts";
import { publishChainViewsWhenReady } from "./infra/chain-views.ts";
import { waitFor } from "./infra/child-process.ts";
import { prepareDataDir } from "./infra/data-dir.ts";
import { startNodeChild } from "./infra/node-child.ts";
import { reclaimOrphans } from "./infra/orphans.ts";
import { claimIndexSchema, indexSchemaName, ponderUrl, startPonder } from "./infra/ponder.ts";
import { startPostgres } from "./infra/postgres.ts";
import { startWorkers } from "./infra/worker-process.ts";
import { composed, createPlatformContext, type RunningParts } from "./platform-context.ts";
import { serveHost } from "./serve-host.ts";

export const ROOT = resolve(import.meta.dirname, "..");

export interface Platform {
  config: Config;
  baseUrl: string;
  /** Each host process's own address: the supervisor's, then HOST_PROCESSES - 1 more. */
  hostUrls: string[];
  credentials: Credentials;
  manifest: DeploymentManifest;
  /** True when this start created the local organisation (its API key is shown once). */
  firstStart: boolean;
  timings: Record<string, number>;
  stop(): Promise<void>;
}

export async function startPlatform(
  options: { env?: NodeJS.ProcessEnv; progress?: (line: string) => void } = {},
): Promise<Platform> {
  const env = options.env ?? process.env;
  if ((env.PLUGIN_MODULES ?? "") !== (process.env.PLUGIN_MODULES ?? "")) {
    // composed (platform-context.ts) loaded the process's own at import; the worker process would load env's.
    throw new Error("PLUGIN_MODULES is read from the process's environment: set it there, not only in options.env");
  }
  const config = loadConfig(env);
  const progress = options.progress ?? (() => {});
  const logger = createLogger(config.LOG_LEVEL);
  const timings: Record<string, number> = {};
  const stops: (() => Promise<void>)[] = [];
  const started = Date.now();
  let phaseStart = started;
  const phase = (name: string, detail: string) => {
    timings[name] = Date.now() - phaseStart;
    progress(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${name}: ${detail}`);
    phaseStart = Date.now();
  };
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((e) => logger.warn("stop step failed", { error: String(e) }));
  };

  try {
    prepareDataDir(config.dataDir);
    await reclaimOrphans(config.dataDir, progress);
    const postgres = await startPostgres({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.dataDir,
      port: config.EMBEDDED_POSTGRES_PORT,
    });
    stops.push(postgres.stop);
    phase(
      "database",
      postgres.embedded ? `embedded PostgreSQL on port ${config.EMBEDDED_POSTGRES_PORT}` : "DATABASE_URL",
    );

    const chainNode = await startChain({
      rpcUrl: config.RPC_URL,
      wsUrl: config.WS_URL,
      chainId: config.CHAIN_ID,
      dataDir: config.dataDir,
      port: config.ANVIL_PORT,
      mining: config.ANVIL_MINING,
      blockTimeSeconds: config.ANVIL_BLOCK_TIME_SECONDS,
    });
    stops.push(chainNode.stop);
    phase("chain", `${chainNode.embedded ? "anvil" : "RPC_URL"} ${chainNode.rpcUrl} (chain ${chainNode.chainId})`);

    const funderKey = (config.DEPLOYER_PRIVATE_KEY ?? (chainNode.embedded ? ANVIL_FUNDER_KEY : undefined)) as
      | Hex
      | undefined;
    let manifestPath = config.DEPLOYMENT_MANIFEST
      ? resolve(config.DEPLOYMENT_MANIFEST)
      : join(config.dataDir, "deployments", `${chainNode.chainId}.json`);
    let manifest: DeploymentManifest;
    let chainReset = false;
    if (config.DEPLOYMENT_MANIFEST) {
      manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
      phase("contracts", `manifest ${manifestPath}`);
    } else {
      if (!funderKey)
        throw new Error("DEPLOYER_PRIVATE_KEY is required to deploy to RPC_URL (or give DEPLOYMENT_MANIFEST)");
      const build = compileContracts();
      const deployed = await ensureDeployment({
        rpcUrl: chainNode.rpcUrl,
        chainId: chainNode.chainId,
        deployerKey: funderKey,
        manifestPath,
        build,
      });
      manifest = deployed.manifest;
      // A new root (chain reset or new contract build) makes the systems of the old one stale.
      chainReset = deployed.chainReset || !deployed.reused;
      phase("contracts", `${deployed.reused ? "reused" : "deployed"} system factory ${manifest.systemFactory}`);
    }
    manifestPath = resolve(manifestPath);

    const db = openDatabases(postgres.url, config.INDEX_VIEWS_SCHEMA);
    stops.push(() => db.close());
    await migrate(new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) }), composed.migrations);
    if (chainReset) {
      // The chain lost its state or the root changed: the organisations' systems are deployed again below.
      await db.platform.deleteFrom("organizationChains").where("chainId", "=", chainNode.chainId).execute();
    }
    phase("migrations", "platform schema up to date");

    const parts: RunningParts = {
      databaseUrl: postgres.url,
      rpcUrl: chainNode.rpcUrl,
      chainId: chainNode.chainId,
      systemFactory: manifest.systemFactory,
      entryPoint: manifest.entryPoint ?? (await canonicalEntryPoint(chainNode.rpcUrl)),
      smartAccountFactory: manifest.smartAccountFactory,
      paymasterFactory: manifest.paymasterFactory,
      indexerUrl: ponderUrl(config.PONDER_PORT),
      funderKey,
    };
    const { chain, index, ctx, taskList } = createPlatformContext(config, parts, logger, db);
    const timers = startTimers(composed.timers(ctx), logger);
    stops.push(timers.stop);
    const lifecycle = startIndexLifecycle({
      db: db.platform,
      pool: db.pool,
      viewsSchema: config.INDEX_VIEWS_SCHEMA,
      chainId: chainNode.chainId,
      depth: reorgDepth(config.WEBHOOK_REORG_DEPTH, chainNode.chainId),
      events: composed.webhookEvents,
      logger,
    });
    stops.push(lifecycle.stop);
    const worker = startWorkers({ config, env, parts, taskList, logger });
    stops.push(worker.stop);

    const indexChains: IndexChainSource[] = [
      {
        manifest: manifestPath,
        rpcUrl: chainNode.rpcUrl,
        wsUrl: chainNode.wsUrl,
        disableCache: chainNode.embedded || chainNode.chainId === 31337,
      },
    ];
    const schema = indexSchemaName(
      ROOT,
      indexChains.map((c) => c.manifest),
    );
    const lockClient = new pg.Client({ connectionString: postgres.url });
    lockClient.on("error", () => {}); // the server stopping under it is not a crash
    await lockClient.connect();
    stops.push(() => lockClient.end());
    await claimIndexSchema(lockClient, schema);
    await dropChainViews(db.pool, config.INDEX_VIEWS_SCHEMA);
    const indexer = await startPonder({
      root: ROOT,
      databaseUrl: postgres.url,
      chains: indexChains,
      viewsSchema: config.INDEX_VIEWS_SCHEMA,
      port: config.PONDER_PORT,
      logFile: join(config.dataDir, "logs", "ponder.log"),
      dataDir: config.dataDir,
    });
    stops.push(indexer.stop);
    const chainViews = publishChainViewsWhenReady({
      index,
      pool: db.pool,
      viewsSchema: config.INDEX_VIEWS_SCHEMA,
      chainIds: indexChains.map(() => chainNode.chainId),
      logger,
    });
    stops.push(chainViews.stop);
    phase("index", `ponder schema ${schema}, views ${config.INDEX_VIEWS_SCHEMA}`);

    await worker.ready; // started before the index, so the two start side by side
    phase("worker", worker.description);

    const readiness = { db: ctx.db, chain, index, workerRunning: worker.running };
    const host = await serveHost({ ctx, readiness, config, databaseUrl: postgres.url, port: config.PORT });
    stops.push(host.stop);
    const baseUrl = config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${host.port}`;
    // HOST_PROCESSES - 1 more, each on the next port (or a free one with PORT 0), behind whatever balances them.
    const moreHosts = Array.from({ length: config.HOST_PROCESSES - 1 }, (_, i) =>
      startNodeChild<{ port: number }>({
        name: `host-${i + 2}`,
        script: "host.ts",
        config,
        env,
        parts,
        extraEnv: { HOST_PORT: String(config.PORT === 0 ? 0 : config.PORT + i + 1) },
      }),
    );
    stops.push(async () => {
      await Promise.all(moreHosts.map((h) => h.stop()));
    });
    const hostUrls = [
      `http://${config.HOST}:${host.port}`,
      ...(await Promise.all(moreHosts.map(async (h) => `http://${config.HOST}:${(await h.ready).port}`))),
    ];
    phase("host", `listening on ${hostUrls.join(", ")}`);

    const { credentials, created } = await bootstrap({
      ctx,
      baseUrl,
      rpcUrl: chainNode.rpcUrl,
    });
    phase("organisation", created ? `created ${credentials.organizationId}` : `reused ${credentials.organizationId}`);

    await waitFor("readiness", async () => (await readinessReport(readiness)).ready, 120_000, 100);
    phase("ready", `${baseUrl}/readyz`);
    timings.total = Date.now() - started;
    return { config, baseUrl, hostUrls, credentials, manifest, firstStart: created, timings, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
