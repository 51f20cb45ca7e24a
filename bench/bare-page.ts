// The yardstick of the collection bench: a bare Hono + kysely route on the API's database serving the same 50-row
// page of the organisation's transaction requests on one chain in one query (the columns, filter and order of the
// API's page query).
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { CamelCasePlugin, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { PlatformTables } from "../host/db/platform-types.ts";

/** pg's default parsers (int8 and numeric as strings), so that the rows serialise without a replacer. */
export async function startBarePage(databaseUrl: string, organizationId: string, chainId: number, limit: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 }); // the host's pool size
  const db = new Kysely<PlatformTables>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  }).withSchema("platform");
  const app = new Hono().get("/page", async (c) => {
    const rows = await db
      .selectFrom("transactionRequests")
      .selectAll()
      .where("organizationId", "=", organizationId)
      .where("chainId", "=", chainId)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return c.json({ data: rows });
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/page`,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await db.destroy();
    },
  };
}
