// How the system's external tokens are listed: the spec's sort and filter fields (name, symbol, type,
// externalRegisteredAt, nothing else), filter[q] over name, symbol and type, facets type and paused.
import type { z } from "@hono/zod-openapi";
import { sql } from "kysely";
import { formatUnits, getAddress } from "viem";
import { defineCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex, type LedgerTables } from "../../host/db/ledger-types.ts";
import type { ExternalTokenSchema } from "./schemas.ts";

export const EXTERNAL_TOKEN_COLLECTION = defineCollection({
  fields: {
    name: { column: "name", type: "text", sortable: true },
    symbol: { column: "symbol", type: "text", sortable: true },
    type: { column: "tokenType", type: "text", sortable: true, facet: true },
    externalRegisteredAt: { column: "registeredTime", type: "timestamp", sortable: true },
    paused: { column: "paused", type: "boolean", facet: true, filter: false },
  },
  search: ["name", "symbol", "type"],
  defaultSort: "-externalRegisteredAt",
  // Registrations within one second keep the chain's order.
  tiebreaker: "ordinal",
  totalFromFacet: "type",
});

/** The system's registered external tokens with the registration time as a timestamp, unpaged and unordered. */
export function systemExternalTokens(ledger: LedgerDb, system: string) {
  return ledger
    .selectFrom((db) =>
      db
        .selectFrom("externalToken")
        .selectAll()
        .select(sql<Date>`to_timestamp(registered_at)`.as("registeredTime"))
        .where("system", "=", indexedHex(system))
        .as("t"),
    )
    .selectAll();
}

export type ExternalTokenRow = LedgerTables["externalToken"] & { registeredTime: Date };

export function toExternalToken(row: ExternalTokenRow): z.infer<typeof ExternalTokenSchema> {
  return {
    id: getAddress(row.token),
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    totalSupply: formatUnits(row.totalSupply, row.decimals),
    totalSupplyExact: row.totalSupply.toString(),
    type: row.tokenType,
    pausable: { paused: row.paused },
    externalRegisteredAt: row.registeredTime.toISOString(),
    externalRegisteredBy: { id: getAddress(row.registeredBy) },
    externalDetectedInterfaces: row.detectedInterfaces,
    implementsERC3643: row.detectedInterfaces.includes("ERC3643"),
    implementsSMART: row.detectedInterfaces.includes("SMART"),
  };
}
