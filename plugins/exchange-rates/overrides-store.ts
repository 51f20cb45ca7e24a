// The manual overrides of exchange-rate pairs: a PUT replaces the pair's live one (kept as history), a DELETE
// removes it.
import { sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { Databases } from "../../host/db/database.ts";
import { liveOverrides, type Scope } from "./rates-query.ts";
import { ratesDb } from "./tables.ts";

interface PairKey {
  organizationId: string;
  chainId: number;
  baseCurrency: string;
  quoteCurrency: string;
}

export async function replaceOverride(
  db: Databases,
  key: PairKey,
  override: { rate: string; effectiveAt?: Date; createdBy: string },
): Promise<void> {
  await ratesDb(db.platform)
    .transaction()
    .execute(async (trx) => {
      // One override write per pair at a time (two concurrent PUTs would both find no live row and both insert).
      const lock = `exchange-rate:${key.organizationId}:${key.chainId}:${key.baseCurrency}/${key.quoteCurrency}`;
      await sql`select pg_advisory_xact_lock(hashtext(${lock}))`.execute(trx);
      // The previous override goes to the history; the partial unique index keeps one live per pair.
      await trx
        .updateTable("exchangeRateOverrides")
        .set({ removedAt: new Date() })
        .where("organizationId", "=", key.organizationId)
        .where("chainId", "=", key.chainId)
        .where("baseCurrency", "=", key.baseCurrency)
        .where("quoteCurrency", "=", key.quoteCurrency)
        .where("removedAt", "is", null)
        .execute();
      await trx
        .insertInto("exchangeRateOverrides")
        .values({
          id: uuidv7(),
          ...key,
          rate: normaliseDecimal(override.rate),
          effectiveAt: override.effectiveAt ?? new Date(),
          createdBy: override.createdBy,
        })
        .execute();
    });
}

/** Removes the pair's live override; false when it had none. */
export async function removeOverride(
  db: Databases,
  scope: Scope,
  pair: { baseCurrency: string; quoteCurrency: string },
): Promise<boolean> {
  const removed = await ratesDb(db.platform)
    .updateTable("exchangeRateOverrides")
    .set({ removedAt: new Date() })
    .where(
      "id",
      "in",
      liveOverrides(db, scope)
        .clearSelect()
        .select("id")
        .where("baseCurrency", "=", pair.baseCurrency)
        .where("quoteCurrency", "=", pair.quoteCurrency),
    )
    .executeTakeFirst();
  return Number(removed.numUpdatedRows) > 0;
}

/** "001.50" → "1.5": one spelling per value in the history. */
export function normaliseDecimal(value: string): string {
  const [whole, fraction = ""] = value.split(".");
  const int = whole.replace(/^0+(?=\d)/, "");
  const frac = fraction.replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}
