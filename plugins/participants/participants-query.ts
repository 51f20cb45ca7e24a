// The participants listed for one purpose: each row's address is the one that purpose uses.
import { sql } from "kysely";
import type { LedgerDb } from "../../host/db/database.ts";
import { type ParticipantScope, participantsRelation } from "../../host/http/participant-relation.ts";

/** transfer: where tokens go; identity: the on-chain identity; participant: the participant's own address. */
export const PARTICIPANT_PURPOSES = ["transfer", "identity", "participant"] as const;
export type ParticipantPurpose = (typeof PARTICIPANT_PURPOSES)[number];

/** The participants, as a kysely select the collection engine can filter, sort and page (on `address` too). */
export function participantsQuery(db: LedgerDb, scope: ParticipantScope, purpose: ParticipantPurpose) {
  const address = { transfer: "transferAddress", identity: "identityAddress", participant: "participantAddress" }[
    purpose
  ];
  return db
    .selectFrom((qb) =>
      qb
        .selectFrom(participantsRelation(scope).as("r"))
        .select([
          "r.id",
          "r.kind",
          "r.displayName",
          "r.wallets",
          "r.transferAddress",
          sql.ref<string | null>(`r.${address}`).as("address"),
        ])
        .as("p"),
    )
    .selectAll("p");
}
