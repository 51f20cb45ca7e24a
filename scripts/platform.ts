import { join, resolve } from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import type { Hex } from "viem";
import { blockHashesOf } from "../host/chain/block-hashes.ts";
import type { Config } from "../host/config.ts";
import { openDatabases } from "../host/db/database.ts";
import { recordIndexBuild } from "../host/db/index-builds.ts";
import { migrate } from "../host/db/migrations.ts";
import { startIndexLifecycle } from "../host/events/index-lifecycle.ts";
import { createLogger } from "../host/logger.ts";
import { readinessReport } from "../host/readiness.ts";
import { startTimers } from "../host/timers.ts";
import { MINED_STATUSES } from "../host/worker/finality.ts";
import { migrateWorkerSchema } from "../host/worker/worker-schema.ts";
import { bootstrap, type Credentials } from "./bootstrap.ts";
import { type BuildOutput, compileContracts } from "./contracts/compile.ts";
import type { DeploymentManifest } from "./contracts/deploy.ts";
import { ANVIL_FUNDER_KEY } from "./infra/anvil.ts";
import { waitFor } from "./infra/child-process.ts";
import { prepareDataDir } from "./infra/data-dir.ts";
import { startIndexer } from "./infra/indexer-part.ts";
import { keptUp, startNodeChild } from "./infra/node-child.ts";
import { reclaimOrphans } from "./infra/orphans.ts";
import { indexSchemaName, ponderUrl } from "./infra/ponder.ts";
import { startPostgres } from "./infra/postgres.ts";
import { deployContracts, startChainNode } from "./infra/served-chain.ts";
import { createSupervisor, RESTART_POLICY } from "./infra/supervisor.ts";
import { startWorkers } from "./infra/worker-process.ts";
import { composed, createPlatformContext, loadPlatformConfig, type RunningParts } from "./platform-context.ts";
import { serveHost } from "./serve-host.ts";

export const ROOT = resolve(import.meta.dirname, "..");

export interface Platform {
  config: Config;
  baseUrl: string;
  /** Each host process's own address: the supervisor's, then HOST_PROCESSES - 1 more. */
  hostUrls: string[];
  credentials: Credentials;
  /** The primary chain's deployment. */
  manifest: DeploymentManifest;
  /** Every served chain's deployment, the primary first. */
  manifests: DeploymentManifest[];
  /** The running parts (databases, chains, indexer) a further host or worker process is started with. */
  parts: RunningParts;
  /** True when this start created the local organisation (its API key is shown once). */
  firstStart: boolean;
  timings: Record<string, number>;
  stop(): Promise<void>;
}

/** Every promise's value once all settled; each fulfilled one is handed to `started` first (to stop it on failure). */
async function allStarted<T>(promises: Promise<T>[], started: (value: T) => void): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  for (const result of results) if (result.status === "fulfilled") started(result.value);
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return results.map((result) => (result as PromiseFulfilledResult<T>).value);
}

export async function startPlatform(
  options: {
    env?: NodeJS.ProcessEnv;
    progress?: (line: string) => void;
    /** Aborted (Ctrl-C during the start): what has started is stopped, and the start rejects with the reason. */
    signal?: AbortSignal;
  } = {},
): Promise<Platform> {
  const env = options.env ?? process.env;
  if ((env.PLUGIN_MODULES ?? "") !== (process.env.PLUGIN_MODULES ?? "")) {
    // composed (platform-context.ts) loaded the process's own at import; the worker process would load env's.
    throw new Error("PLUGIN_MODULES is read from the process's environment: set it there, not only in options.env");
  }
  const config = loadPlatformConfig(env);
  const progress = options.progress ?? (() => {});
  const logger = createLogger(config.LOG_LEVEL);
  // Restarts the parts that crash (not the ones stop() stops): the database, the chains, the indexer, the workers and
  // further hosts.
  const supervisor = createSupervisor(logger.child({ component: "supervisor" }), {
    ...RESTART_POLICY,
    initialMs: config.RESTART_BACKOFF_SECONDS * 1000,
  });
  const timings: Record<string, number> = {};
  const stops: (() => Promise<void>)[] = [];
  const started = Date.now();
  let phaseStart = started;
  const phase = (name: string, detail: string) => {
    timings[name] = Date.now() - phaseStart;
    progress(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${name}: ${detail}`);
    phaseStart = Date.now();
    options.signal?.throwIfAborted();
  };
  const stopped = () => (options.signal?.aborted ? "the start was stopped" : undefined);
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((e) => logger.warn("stop step failed", { error: String(e) }));
  };

  try {
    prepareDataDir(config.dataDir);
    await reclaimOrphans(config.dataDir, progress);
    const postgres = await supervisor.keep(() =>
      startPostgres({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, port: config.EMBEDDED_POSTGRES_PORT }),
    );
    stops.push(postgres.stop);
    phase(
      "database",
      postgres.embedded ? `embedded PostgreSQL on port ${config.EMBEDDED_POSTGRES_PORT}` : "DATABASE_URL",
    );

    // Every chain's node, then its contracts, chains side by side; the primary first. The embedded chains share
    // anvil's funder.
    const nodes = await allStarted(
      config.chains.map((setting, i) => supervisor.keep(() => startChainNode(setting, config, i === 0))),
      (node) => stops.push(node.stop),
    );
    phase("chain", nodes.map((n) => `${n.embedded ? "anvil" : "RPC"} ${n.rpcUrl} (chain ${n.chainId})`).join(", "));

    const allEmbedded = nodes.every((node) => node.embedded);
    const funderKey = (config.DEPLOYER_PRIVATE_KEY ?? (allEmbedded ? ANVIL_FUNDER_KEY : undefined)) as Hex | undefined;
    let build: BuildOutput | undefined;
    const chains = await Promise.all(
      nodes.map((node, i) =>
        deployContracts({
          node,
          setting: config.chains[i]!,
          dataDir: config.dataDir,
          funderKey,
          build: () => (build ??= compileContracts()),
        }),
      ),
    );
    const primary = chains[0]!;
    phase("contracts", chains.map((chain) => chain.description).join("; "));

    const db = openDatabases(postgres.url, config.INDEX_VIEWS_SCHEMA);
    stops.push(() => db.close());
    await migrate(new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) }), composed.migrations);
    await migrateWorkerSchema(db.pool, logger);
    for (const chain of chains.filter((c) => c.chainReset)) {
      // The chain lost its state or the root changed: the organisations' systems are deployed again below.
      await db.platform.deleteFrom("organizationChains").where("chainId", "=", chain.node.chainId).execute();
      // Nonces reserved on the lost chain: its signers start again from the node's count.
      await db.platform.deleteFrom("signerNonces").where("chainId", "=", chain.node.chainId).execute();
      // Its writes are history, not removed by a reorg: the finality watch must not send them to the new chain.
      await db.platform
        .updateTable("transactionRequests")
        .set({ finalizedAt: new Date() })
        .where("chainId", "=", chain.node.chainId)
        .where("status", "in", MINED_STATUSES)
        .where("finalizedAt", "is", null)
        .execute();
    }
    phase("migrations", "platform schema up to date");

    const parts: RunningParts = {
      databaseUrl: postgres.url,
      chains: chains.map((chain) => chain.parts),
      indexerUrl: ponderUrl(config.PONDER_PORT),
      funderKey,
    };
    const { chains: served, index, ctx, taskList } = createPlatformContext(config, parts, logger, db);
    const timers = startTimers(composed.timers(ctx), logger);
    stops.push(timers.stop);
    const lifecycle = startIndexLifecycle({
      db: db.platform,
      pool: db.pool,
      viewsSchema: config.INDEX_VIEWS_SCHEMA,
      chains: chains.map((chain) => ({
        chainId: chain.node.chainId,
        depth: chain.setting.finalityDepth,
        blockHashes: blockHashesOf(served.get(chain.node.chainId).client),
      })),
      events: composed.webhookEvents,
      logger,
    });
    stops.push(lifecycle.stop);
    const worker = startWorkers({ config, env, parts, taskList, logger, supervisor });
    stops.push(worker.stop);

    const indexChains = chains.map((chain) => chain.index);
    const schema = indexSchemaName(
      ROOT,
      indexChains.map((c) => c.deployment),
      config.INDEX_REBUILD_KEY,
    );
    // Before the host serves: a new build backfilling while the views serve the previous one opens its index gate.
    await recordIndexBuild(db.pool, config.INDEX_VIEWS_SCHEMA, schema);
    // Ponder's start (its build, its tables) is the slowest phase: the host and the organisation start beside it,
    // as the host's index gate answers 503 INDEXER_REINDEXING to reads until the chain views exist (unless a previous
    // build serves them meanwhile).
    const indexerStarting = startIndexer({
      ponder: {
        root: ROOT,
        schema,
        databaseUrl: postgres.url,
        chains: indexChains,
        port: config.PONDER_PORT,
        logFile: join(config.dataDir, "logs", "ponder.log"),
        dataDir: config.dataDir,
      },
      viewsSchema: config.INDEX_VIEWS_SCHEMA,
      head: (chainId) =>
        served
          .get(chainId)
          .client.scope({ signal: AbortSignal.timeout(1_000) })
          .getBlockNumber(),
      pool: db.pool,
      index,
      chainIds: served.ids,
      logger,
      supervisor,
    });
    indexerStarting.catch(() => {}); // awaited below; not an unhandled rejection if it fails meanwhile
    stops.push(() =>
      indexerStarting.then(
        (indexer) => indexer.stop(),
        () => {},
      ),
    );
    worker.ready.catch(() => {}); // the same: awaited once the organisation is there

    const readiness = { db: ctx.db, chains: served, index, workerRunning: worker.running, parts: supervisor.parts };
    const host = await serveHost({ ctx, readiness, config, databaseUrl: postgres.url, port: config.PORT });
    stops.push(host.stop);
    const baseUrl = config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${host.port}`;
    // HOST_PROCESSES - 1 more, each on the next port (or a free one with PORT 0), behind whatever balances them.
    const moreHosts = Array.from({ length: config.HOST_PROCESSES - 1 }, (_, i) => {
      const start = (port: number) =>
        startNodeChild<{ port: number }>({
          name: `host-${i + 2}`,
          script: "host.ts",
          config,
          env,
          parts,
          extraEnv: { HOST_PORT: String(port) },
        });
      // A restarted host takes the port the first one listened on.
      return keptUp(supervisor, start(config.PORT === 0 ? 0 : config.PORT + i + 1), ({ port }) => start(port));
    });
    stops.push(async () => {
      await Promise.all(moreHosts.map((h) => h.stop()));
    });
    const hostUrls = [
      `http://${config.HOST}:${host.port}`,
      ...(await Promise.all(moreHosts.map(async (h) => `http://${config.HOST}:${(await h.ready).port}`))),
    ];
    phase("host", `listening on ${hostUrls.join(", ")}`);

    const { credentials, created } = await bootstrap({
      stopped,
      ctx,
      baseUrl,
      rpcUrl: primary.node.rpcUrl,
    });
    phase("organisation", created ? `created ${credentials.organizationId}` : `reused ${credentials.organizationId}`);

    await worker.ready; // it started before the index and the host, and ran the organisation's jobs once up
    phase("worker", worker.description);

    await indexerStarting;
    phase("index", `ponder schema ${schema}, views ${config.INDEX_VIEWS_SCHEMA}`);

    await waitFor("readiness", async () => (await readinessReport(readiness)).ready, 120_000, 100, stopped);
    phase("ready", `${baseUrl}/readyz`);
    timings.total = Date.now() - started;
    return {
      config,
      baseUrl,
      hostUrls,
      credentials,
      manifest: primary.manifest,
      manifests: chains.map((chain) => chain.manifest),
      parts,
      firstStart: created,
      timings,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
