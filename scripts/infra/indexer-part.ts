// The indexer as the supervisor runs it, at start and again after every crash: the index schema claimed (one
// supervisor per schema; the lock flag and progress a dead Ponder left reset), Ponder started, and the build published
// (host/db/index-builds.ts). Blue/green: a build other than the one the views serve backfills into its own schema while
// the views keep serving the previous build, and they switch once it has reached the chain's head. The build the views
// serve (or none: a first start, a dropped schema) is published again once Ponder is ready, its chain views dropped
// meanwhile so the host's index gate waits for the re-read of its newest blocks.
import pg from "pg";
import { dropChainViews } from "../../host/db/chain-views.ts";
import { recordIndexBuild } from "../../host/db/index-builds.ts";
import type { IndexStatus } from "../../host/index-status.ts";
import type { Logger } from "../../host/logger.ts";
import { publishIndexBuildWhenReady } from "./chain-views.ts";
import { dropStaleIndexBuilds } from "./index-builds.ts";
import { claimIndexSchema, startPonder } from "./ponder.ts";
import type { Supervisor } from "./supervisor.ts";

export async function startIndexer(options: {
  ponder: Parameters<typeof startPonder>[0] & { schema: string };
  /** The stable schema readers query. */
  viewsSchema: string;
  /** Each chain's head (a new build is published once it reaches it). */
  head: (chainId: number) => Promise<bigint>;
  pool: pg.Pool;
  index: IndexStatus;
  chainIds: number[];
  logger: Logger;
  supervisor: Supervisor;
}): Promise<{ stop(): Promise<void> }> {
  const { ponder, pool } = options;
  // The schema's advisory lock lives as long as this session; a database restart ends it, the next claim takes it anew.
  let lock: pg.Client | undefined;
  let lockLost = true;
  const claim = async () => {
    if (lockLost) {
      await lock?.end().catch(() => {});
      const client = new pg.Client({ connectionString: ponder.databaseUrl });
      lock = client;
      const lost = () => {
        if (lock === client) lockLost = true;
      };
      client.on("error", lost); // the server stopping under it is not a crash
      client.on("end", lost);
      await client.connect();
      lockLost = false;
    }
    await claimIndexSchema(lock as pg.Client, ponder.schema);
  };
  let views: { stop(): Promise<void> } | undefined;
  const launch = async () => {
    await claim();
    const served = await recordIndexBuild(pool, options.viewsSchema, ponder.schema);
    const replacing = served !== null && served !== ponder.schema;
    // A build that was backfilling when this one replaced it will never be served.
    await dropStaleIndexBuilds(ponder.databaseUrl, [served, ponder.schema]).catch((error) =>
      options.logger.warn("dropping previous index builds failed", { error: String(error) }),
    );
    if (!replacing) await dropChainViews(pool, options.viewsSchema);
    const indexer = await startPonder(ponder);
    await views?.stop();
    views = publishIndexBuildWhenReady({
      index: options.index,
      pool,
      databaseUrl: ponder.databaseUrl,
      viewsSchema: options.viewsSchema,
      schema: ponder.schema,
      chainIds: options.chainIds,
      untilHead: replacing ? options.head : undefined,
      logger: options.logger,
    });
    return indexer;
  };
  let indexer: Awaited<ReturnType<typeof startPonder>>;
  try {
    indexer = await launch();
  } catch (error) {
    await lock?.end().catch(() => {});
    throw error;
  }
  const part = options.supervisor.watch(indexer.child, async () => (await launch()).child);
  return {
    async stop() {
      await views?.stop();
      await part.stop();
      await lock?.end().catch(() => {});
    },
  };
}
