import { createServer } from "node:net";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { recordingLogger } from "../../test/support/recording-logger.ts";
import type { PlatformDb } from "../db/database.ts";
import { startIndexLifecycle } from "./index-lifecycle.ts";

describe("the index lifecycle while the database is down", () => {
  it("backs off and logs the outage once instead of every tick", async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    await new Promise((r) => server.close(r)); // nothing listens there now: every connection is refused
    const pool = new pg.Pool({ connectionString: `postgres://x:y@127.0.0.1:${port}/z` });
    pool.on("error", () => {});
    const { logger, lines } = recordingLogger();
    const lifecycle = startIndexLifecycle(
      {
        db: new Kysely({ dialect: new PostgresDialect({ pool }) }) as unknown as PlatformDb,
        pool,
        viewsSchema: "ledger",
        chains: [{ chainId: 31337, depth: 3 }],
        events: new Map([["x.seen", { description: "x", payload: z.object({}), fromIndex: { read: async () => [] } }]]),
        logger,
      },
      10,
    );
    await new Promise((r) => setTimeout(r, 1500)); // 150 ticks at the poll interval
    await lifecycle.stop();
    await pool.end();
    // One line for the outage (ticks at 10 ms would have logged one per try): 0.5 s, 1 s ... between tries.
    expect(lines).toMatchObject([{ level: "warn", msg: "index lifecycle: database unavailable; waiting for it" }]);
  });
});
