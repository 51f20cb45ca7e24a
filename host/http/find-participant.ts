// One participant of the organisation by id (a user, organisation, token, claim issuer or addon id), or 404 SVC-0524.
// A participant joins platform rows and index rows: it is cached like the chain rows (until a platform change) and
// per index version.
import type { Context } from "hono";
import { looksLikeAddress } from "../../domain/evm/address.ts";
import { requestIndexVersion } from "../cache/indexed-reads.ts";
import type { ShortCache } from "../cache/short-cache.ts";
import type { RequestChain } from "../chain/request-chain.ts";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "./env.ts";
import { type ParticipantKind, type ParticipantRow, participantsRelation } from "./participant-relation.ts";

/** Participants known by their address (stored lowercase); people and organisations have issued ids. */
const ADDRESS_KINDS: readonly ParticipantKind[] = ["asset", "claim_issuer", "addon"];
const ISSUED_ID_KINDS: readonly ParticipantKind[] = ["person", "organisation"];

export async function findParticipant(
  c: Context<AppEnv>,
  viewsSchema: string,
  chain: RequestChain,
  id: string,
): Promise<ParticipantRow> {
  const { organizationId } = c.get("principal");
  const byAddress = looksLikeAddress(id);
  const key = byAddress ? id.toLowerCase() : id;
  const load = async () =>
    (await chain.ledger
      .selectFrom(
        participantsRelation(
          { viewsSchema, chainId: chain.chainId, organizationId, system: chain.systemAddress },
          // Only the kinds whose ids look like this one: a smaller query to plan and run.
          byAddress ? ADDRESS_KINDS : ISSUED_ID_KINDS,
        ).as("p"),
      )
      .selectAll()
      .where("p.id", "=", key)
      .executeTakeFirst()) as ParticipantRow | undefined;
  const cache = c.get("participantRows") as ShortCache<ParticipantRow> | undefined;
  const version = requestIndexVersion(c);
  const row =
    id.length > 200
      ? undefined
      : cache && version
        ? await cache.get(`${await version} ${organizationId} ${chain.chainId} ${chain.systemAddress} ${key}`, load)
        : await load();
  if (!row) throw new ApiError("PARTICIPANT_NOT_FOUND", { details: { participantId: id } });
  return row;
}
