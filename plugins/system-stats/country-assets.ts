// The system's assets by country: a token counts under the country its identity (entity) is registered with.
import { sql } from "kysely";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";

/** totalsByCountry is keyed by the ISO 3166-1 numeric code (0, unknown, is left out); totalAssets counts every token. */
export async function countryAssetCount(db: LedgerDb, system: string) {
  const systemId = indexedHex(system);
  const [byCountry, assets] = await Promise.all([
    db
      .selectFrom("token as t")
      .innerJoin("identity as i", (join) =>
        join.onRef("i.account", "=", "t.id").on("i.system", "=", systemId).on("i.registrations", ">", 0),
      )
      .where("t.system", "=", systemId)
      .where("i.country", ">", 0)
      .select(["i.country", sql<bigint>`count(*)`.as("assets")])
      .groupBy("i.country")
      .execute(),
    db
      .selectFrom("token")
      .where("system", "=", systemId)
      .select(sql<bigint>`count(*)`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  const totalsByCountry = Object.fromEntries(byCountry.map((row) => [String(row.country), Number(row.assets)]));
  return { totalsByCountry, totalCountries: byCountry.length, totalAssets: Number(assets.total) };
}
