// Publishes the running index build (host/db/index-builds.ts) once the indexer is ready: the views schema and each
// chain's views pointed at its schema in one transaction, then the builds left behind dropped. A build that replaces
// the one the views serve (`untilHead`) is published only once it has also reached each chain's head, so readers
// switch from the previous index to one at least as recent.
import type pg from "pg";
import { publishIndexBuild } from "../../host/db/index-builds.ts";
import type { IndexStatus } from "../../host/index-status.ts";
import type { Logger } from "../../host/logger.ts";
import { dropStaleIndexBuilds } from "./index-builds.ts";

export function publishIndexBuildWhenReady(options: {
  index: IndexStatus;
  pool: pg.Pool;
  databaseUrl: string;
  viewsSchema: string;
  /** The running build's schema. */
  schema: string;
  chainIds: number[];
  /** Each chain's head, when the build must reach it before it is published. */
  untilHead?: (chainId: number) => Promise<bigint>;
  logger: Logger;
}): { stop(): Promise<void> } {
  let stopped = false;
  const atHeads = async () => {
    for (const chainId of options.chainIds) {
      const head = await options.untilHead?.(chainId);
      if (head !== undefined && !(await options.index.waitForBlock(chainId, head, 1_000))) return false;
    }
    return true;
  };
  const run = (async () => {
    while (!stopped) {
      try {
        if ((await options.index.isReady()) && (await atHeads()) && !stopped) {
          await publishIndexBuild(options.pool, options.viewsSchema, options.schema, options.chainIds);
          options.logger.info("index build published", { schema: options.schema, views: options.viewsSchema });
          await dropStaleIndexBuilds(options.databaseUrl, [options.schema]).then(
            (dropped) =>
              dropped.length && options.logger.info("previous index builds dropped", { schemas: dropped.join(",") }),
            (error) => options.logger.warn("dropping previous index builds failed", { error: String(error) }),
          );
          return;
        }
      } catch (error) {
        options.logger.warn("publishing the index build failed; retrying", { error: String(error) });
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
