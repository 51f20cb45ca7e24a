// One participant of the organisation by id (a user, organisation, token, claim issuer or addon id), or 404 SVC-0524.
import type { Context } from "hono";
import type { RequestChain } from "../chain/request-chain.ts";
import type { LedgerDb } from "../db/database.ts";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "../http/env.ts";
import { type ParticipantRow, participantsRelation } from "./participants-query.ts";

/** Address ids are stored lowercase; other ids (users, organisations) as issued. */
const normalize = (id: string) => (/^0x[0-9a-fA-F]{40}$/.test(id) ? id.toLowerCase() : id);

export async function findParticipant(
  c: Context<AppEnv>,
  db: LedgerDb,
  viewsSchema: string,
  chain: RequestChain,
  id: string,
): Promise<ParticipantRow> {
  const { organizationId } = c.get("principal");
  const row =
    id.length > 200
      ? undefined
      : await db
          .selectFrom(participantsRelation({ viewsSchema, organizationId, system: chain.systemAddress }).as("p"))
          .selectAll()
          .where("p.id", "=", normalize(id))
          .executeTakeFirst();
  if (!row) throw new ApiError("PARTICIPANT_NOT_FOUND", { details: { participantId: id } });
  return row as ParticipantRow;
}
