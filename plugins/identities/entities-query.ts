// The entity list's query over the index: the system's contract identities with their contract (a token's name and
// type), registration status and latest activity; the claim counts of a page's rows.
import { sql } from "kysely";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { type ClaimSummary, claimSummaryOf, summarizeClaims } from "./claim-summary.ts";

/** Unpaged and unordered (the collection engine adds those); one row per contract identity of `system`. */
export function systemEntities(db: LedgerDb, system: string) {
  return db
    .selectFrom((qb) =>
      qb
        .selectFrom("identity as i")
        .leftJoin("token as t", "t.id", "i.account")
        .where("i.system", "=", indexedHex(system))
        .where("i.isContract", "=", true)
        .select([
          "i.id",
          "i.account as contractAddress",
          "t.name as contractName",
          "t.type as entityType",
          "i.country",
          "i.deployedInTransaction",
          sql<"registered" | "pending">`case when i.registrations > 0 then 'registered' else 'pending' end`.as(
            "status",
          ),
          sql<Date>`to_timestamp(i.last_activity_at)`.as("lastActivity"),
        ])
        .as("e"),
    )
    .selectAll();
}

export type EntityRow = Awaited<ReturnType<ReturnType<typeof systemEntities>["execute"]>>[number];

/** The attached claims of `identities`, each with its topic's name and whether the system trusts its issuer for it. */
export async function entityClaimSummaries(db: LedgerDb, system: string, identities: string[]) {
  if (identities.length === 0) return summarizeClaims([]);
  const systemId = indexedHex(system);
  const claims = await db
    .selectFrom("identityClaim as c")
    .leftJoin("topicScheme as s", (join) =>
      join.onRef("s.topicId", "=", "c.topic").on("s.system", "=", systemId).on("s.active", "=", true),
    )
    .where("c.identity", "in", identities.map(indexedHex))
    .select((eb) => [
      "c.identity",
      "c.status",
      "c.topic",
      "s.name as topicName",
      eb
        .exists(
          eb
            .selectFrom("trustedIssuer as ti")
            .select(sql`1`.as("one"))
            .where("ti.system", "=", systemId)
            .where("ti.active", "=", true)
            .whereRef("ti.issuer", "=", "c.issuer")
            .where(sql<boolean>`c.topic = any(ti.claim_topics)`),
        )
        .as("trusted"),
    ])
    .execute();
  return summarizeClaims(claims.map((claim) => ({ ...claim, trusted: Boolean(claim.trusted) })));
}

/** A page's rows made items, each with its identity's claim summary (one query for the page). */
export function withClaimSummaries<Row extends { id: string }, Item>(toItem: (row: Row, claims: ClaimSummary) => Item) {
  return async (rows: Row[], chain: { ledger: LedgerDb; systemAddress: string }) => {
    const claims = await entityClaimSummaries(
      chain.ledger,
      chain.systemAddress,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toItem(row, claimSummaryOf(claims, row.id)));
  };
}
