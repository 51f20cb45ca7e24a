// How the system's identities are listed (wallets' and contracts'), e.g. an identity looked up by its wallet.
import { sql } from "kysely";
import { defineCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";

export const IDENTITY_STATUSES = ["registered", "pending"] as const;

const lowercase = (value: string) => value.toLowerCase();

/** Columns of `systemIdentities`. */
export const IDENTITY_COLLECTION = defineCollection({
  fields: {
    /** The wallet (or contract) the identity belongs to. */
    wallet: { column: "account", type: "text", sortable: true, normalize: lowercase },
    identityAddress: { column: "id", type: "text", sortable: true, normalize: lowercase },
    isContract: { column: "isContract", type: "boolean", facet: true },
    status: { column: "status", type: "enum", values: IDENTITY_STATUSES, facet: true },
    createdAt: { column: "createdTime", type: "timestamp", sortable: true },
    lastActivity: { column: "lastActivity", type: "timestamp", sortable: true },
  },
  search: ["wallet", "identityAddress"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
  totalFromFacet: "status",
});

/** One row per identity the system's factory created; unpaged and unordered (the engine adds those). */
export function systemIdentities(db: LedgerDb, system: string) {
  return db
    .selectFrom((qb) =>
      qb
        .selectFrom("identity")
        .where("system", "=", indexedHex(system))
        .select([
          "id",
          "account",
          "isContract",
          "country",
          "deployedInTransaction",
          sql<"registered" | "pending">`case when registrations > 0 then 'registered' else 'pending' end`.as("status"),
          sql<Date>`to_timestamp(created_at)`.as("createdTime"),
          sql<Date>`to_timestamp(last_activity_at)`.as("lastActivity"),
        ])
        .as("i"),
    )
    .selectAll();
}

export type IdentityRow = Awaited<ReturnType<ReturnType<typeof systemIdentities>["execute"]>>[number];
