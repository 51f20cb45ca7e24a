// The indexer as the supervisor runs it, at start and again after every crash: the index schema claimed (one
// supervisor per schema; the lock flag and progress a dead Ponder left reset), the chain views dropped (Ponder
// replaces its own views when it is ready and refuses while ours depend on them), Ponder started, and the chain views
// made again once it is ready.
import pg from "pg";
import { dropChainViews } from "../../host/db/chain-views.ts";
import type { IndexStatus } from "../../host/index-status.ts";
import type { Logger } from "../../host/logger.ts";
import { publishChainViewsWhenReady } from "./chain-views.ts";
import { claimIndexSchema, startPonder } from "./ponder.ts";
import type { Supervisor } from "./supervisor.ts";

export async function startIndexer(options: {
  ponder: Parameters<typeof startPonder>[0] & { schema: string };
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
    await dropChainViews(pool, ponder.viewsSchema);
    const indexer = await startPonder(ponder);
    await views?.stop();
    views = publishChainViewsWhenReady({
      index: options.index,
      pool,
      viewsSchema: ponder.viewsSchema,
      chainIds: options.chainIds,
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
