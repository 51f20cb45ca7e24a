// Shared pieces of the legacy reads (token and user routes): query shapes, the event page, the holder wrapper.
import { z } from "@hono/zod-openapi";
import { sql } from "kysely";
import { formatUnits } from "viem";
import type { LedgerDb } from "../../host/db/database.ts";
import { isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";
import { badRequest } from "../../host/errors/api-error.ts";
import { AddressSchema, IsoTimestampSchema, repeatable } from "../../host/http/schemas.ts";
import { tokenEvents, toTokenEvent } from "./events-collection.ts";

export const LegacyPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const HashSchema = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "a 0x-prefixed 32-byte transaction hash");

export const LegacyEventsQuerySchema = LegacyPageQuerySchema.extend({
  eventNames: repeatable(z.string().min(1).max(64)).openapi({ description: "repeatable: ?eventNames=A&eventNames=B" }),
  senderAddress: AddressSchema.optional(),
  transactionHashes: repeatable(HashSchema).openapi({ description: "repeatable" }),
  fromDate: IsoTimestampSchema.optional(),
  toDate: IsoTimestampSchema.optional(),
  walletAddress: AddressSchema.optional().openapi({ description: "events the wallet sent or is involved in" }),
});
export type LegacyEventsQuery = z.output<typeof LegacyEventsQuerySchema>;

/** senderAddress and walletAddress select events differently; the legacy API refuses them together. */
export function refuseSenderWithWallet(query: { senderAddress?: string; walletAddress?: string }) {
  if (query.senderAddress !== undefined && query.walletAddress !== undefined) {
    const message = "senderAddress and walletAddress cannot be combined; send one of them";
    throw badRequest(message, [
      { path: "senderAddress", message },
      { path: "walletAddress", message },
    ]);
  }
}

type EventsQuery = ReturnType<typeof tokenEvents>;

/** Events the wallets sent or are involved in. */
export function involving(q: EventsQuery, wallets: string[]): EventsQuery {
  const lowered = wallets.map((w) => w.toLowerCase());
  return q.where((eb) =>
    eb.or([eb("sender", "in", lowered as `0x${string}`[]), sql<boolean>`involved && cast(${lowered} as text[])`]),
  );
}

/** One page of events, newest first, with the legacy filters; `scope` limits them (a token, the organisation's). */
export async function legacyEventsPage(
  ledger: LedgerDb,
  query: Partial<LegacyEventsQuery> & { limit: number; offset: number },
  scope: (q: EventsQuery) => EventsQuery,
) {
  let q = scope(tokenEvents(ledger));
  if (query.eventNames?.length) q = q.where("eventName", "in", query.eventNames);
  if (query.senderAddress) q = q.where("sender", "=", query.senderAddress.toLowerCase() as `0x${string}`);
  if (query.transactionHashes?.length) {
    q = q.where(
      "transactionHash",
      "in",
      query.transactionHashes.map((h) => h.toLowerCase() as `0x${string}`),
    );
  }
  if (query.fromDate) q = q.where("blockTime", ">=", query.fromDate);
  if (query.toDate) q = q.where("blockTime", "<=", query.toDate);
  if (query.walletAddress) q = involving(q, [query.walletAddress]);
  const [rows, count] = await Promise.all([
    q.orderBy("blockTime", "desc").orderBy("id", "desc").limit(query.limit).offset(query.offset).execute(),
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll<bigint>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { events: rows.map(toTokenEvent), totalCount: Number(count.n) };
}

type BalanceRow = Pick<LedgerTables["tokenBalance"], "account" | "value" | "frozen" | "isFrozen" | "lastUpdatedAt">;

/** A balance with the token's decimals applied (decimal strings), as the legacy holders routes show it. */
export function toLegacyHolder(row: BalanceRow, decimals: number) {
  const fmt = (v: bigint) => formatUnits(v, decimals);
  const available = row.value > row.frozen ? row.value - row.frozen : 0n;
  return {
    account: { id: row.account },
    value: fmt(row.value),
    available: fmt(available),
    frozen: fmt(row.frozen),
    isFrozen: row.isFrozen,
    lastUpdatedAt: isoFromSeconds(row.lastUpdatedAt),
  };
}
