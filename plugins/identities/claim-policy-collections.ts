// How the system's claim policy is listed: its topic schemes and its trusted issuers (the active ones), from the index.
import { sql } from "kysely";
import { ARRAY_MEMBERSHIP_OPERATORS, arrayMembership, defineCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";

const lowercase = (value: string) => value.toLowerCase();

/** Columns of `activeTopicSchemes`. */
export const TOPIC_SCHEME_COLLECTION = defineCollection({
  fields: {
    name: { column: "name", type: "text", sortable: true },
    topicId: { column: "topicId", type: "bigint", sortable: true },
    signature: { column: "signature", type: "text" },
    registeredAt: { column: "registeredTime", type: "timestamp", sortable: true },
    updatedAt: { column: "updatedTime", type: "timestamp", sortable: true },
  },
  search: ["name", "signature"],
  defaultSort: "name",
  tiebreaker: "topicId",
});

/** Columns of `activeTrustedIssuers`. */
export const TRUSTED_ISSUER_COLLECTION = defineCollection({
  fields: {
    issuerAddress: { column: "issuer", type: "text", sortable: true, normalize: lowercase },
    /** A topic id (decimal) the issuer is trusted for. */
    claimTopic: {
      column: "claimTopics",
      type: "text",
      facet: true,
      facetElements: true,
      filter: { operators: ARRAY_MEMBERSHIP_OPERATORS },
      condition: arrayMembership("claimTopics"),
    },
    addedAt: { column: "addedTime", type: "timestamp", sortable: true },
    updatedAt: { column: "updatedTime", type: "timestamp", sortable: true },
  },
  search: ["issuerAddress"],
  defaultSort: "addedAt",
  tiebreaker: "issuer",
});

/** The system's registered (not removed) topic schemes; unpaged and unordered (the engine adds those). */
export function activeTopicSchemes(db: LedgerDb, system: string) {
  return db
    .selectFrom((qb) =>
      qb
        .selectFrom("topicScheme")
        .select([
          "topicId",
          "name",
          "signature",
          "registry",
          sql<Date>`to_timestamp(registered_at)`.as("registeredTime"),
          sql<Date>`to_timestamp(updated_at)`.as("updatedTime"),
        ])
        .where("system", "=", indexedHex(system))
        .where("active", "=", true)
        .as("s"),
    )
    .selectAll();
}

/** The issuers the system trusts (not removed), their topics as decimal strings; unpaged and unordered. */
export function activeTrustedIssuers(db: LedgerDb, system: string) {
  return db
    .selectFrom((qb) =>
      qb
        .selectFrom("trustedIssuer")
        .select([
          "issuer",
          "registry",
          sql<string[]>`cast(claim_topics as text[])`.as("claimTopics"),
          sql<Date>`to_timestamp(added_at)`.as("addedTime"),
          sql<Date>`to_timestamp(updated_at)`.as("updatedTime"),
        ])
        .where("system", "=", indexedHex(system))
        .where("active", "=", true)
        .as("i"),
    )
    .selectAll();
}

export type TopicSchemeRow = Awaited<ReturnType<ReturnType<typeof activeTopicSchemes>["execute"]>>[number];
export type TrustedIssuerRow = Awaited<ReturnType<ReturnType<typeof activeTrustedIssuers>["execute"]>>[number];
