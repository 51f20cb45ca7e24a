// Each chain's views over the index (host/db/chain-views.ts), made once the indexer is ready: Ponder points its own
// views at a new build's tables only then, and the chain views select from those.
import type pg from "pg";
import { createChainViews } from "../../host/db/chain-views.ts";
import type { IndexStatus } from "../../host/index-status.ts";
import type { Logger } from "../../host/logger.ts";

export function publishChainViewsWhenReady(options: {
  index: IndexStatus;
  pool: pg.Pool;
  viewsSchema: string;
  chainIds: number[];
  logger: Logger;
}): { stop(): Promise<void> } {
  let stopped = false;
  const run = (async () => {
    while (!stopped) {
      if (await options.index.isReady()) {
        try {
          await createChainViews(options.pool, options.viewsSchema, options.chainIds);
          options.logger.info("chain views created", { chains: options.chainIds.join(",") });
          return;
        } catch (error) {
          options.logger.warn("creating the chain views failed; retrying", { error: String(error) });
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await run;
    },
  };
}
