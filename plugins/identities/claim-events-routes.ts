// An identity's claim events (ClaimAdded, ClaimChanged, ClaimRemoved on it; ClaimRevoked by its claims' issuers).
import { z } from "@hono/zod-openapi";
import { sql } from "kysely";
import { collectionRoute, systemCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import type { App } from "../../host/http/env.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { CLAIM_EVENT_COLLECTION, CLAIM_EVENT_NAMES } from "./claim-event-collection.ts";
import { systemIdentity } from "./identity-lookup.ts";

const Ref = z.object({ id: z.string() });

export const ClaimEventSchema = z
  .object({
    id: z.string().openapi({ description: "Transaction hash and log index" }),
    eventName: z.enum(CLAIM_EVENT_NAMES),
    topic: z.string().openapi({ description: "Topic id, decimal" }),
    topicName: z.string().nullable().openapi({ description: "The topic scheme's name; null when the system has none" }),
    claimId: z.string(),
    blockNumber: z.string(),
    blockTimestamp: z.string(),
    transactionHash: z.string(),
    emitter: Ref,
    sender: Ref,
    values: z.array(z.object({ id: z.string(), name: z.string(), value: z.string() })).openapi({
      description:
        "Decoded parameters: topic, scheme, issuer, signature, data, uri (ClaimRevoked: topic, issuer, signature)",
    }),
  })
  .openapi("IdentityClaimEvent");

/** Unpaged and unordered (the collection engine adds those); each event with its topic's name in `system`. */
function claimEventsOf(db: LedgerDb, identity: string, system: string) {
  return db
    .selectFrom((qb) =>
      qb
        .selectFrom("identityClaimEvent as e")
        // One registry per system, so at most one scheme per topic id (a removed one keeps its name).
        .leftJoin("topicScheme as s", (join) =>
          join.onRef("s.topicId", "=", "e.topic").on("s.system", "=", indexedHex(system)),
        )
        .where("e.identity", "=", indexedHex(identity))
        .select([
          "e.id",
          "e.ordinal",
          "e.eventName",
          "e.topic",
          "s.name as topicName",
          "e.claimId",
          "e.issuer",
          "e.emitter",
          "e.sender",
          "e.values",
          "e.blockNumber",
          "e.transactionHash",
          sql<Date>`to_timestamp(e.block_timestamp)`.as("blockTimestamp"),
        ])
        .as("e"),
    )
    .selectAll();
}

type ClaimEventRow = Awaited<ReturnType<ReturnType<typeof claimEventsOf>["execute"]>>[number];

function toClaimEvent(row: ClaimEventRow) {
  return {
    id: row.id,
    eventName: row.eventName as (typeof CLAIM_EVENT_NAMES)[number],
    topic: row.topic.toString(),
    topicName: row.topicName,
    claimId: row.claimId,
    blockNumber: row.blockNumber.toString(),
    blockTimestamp: row.blockTimestamp.toISOString(),
    transactionHash: row.transactionHash,
    emitter: { id: row.emitter },
    sender: { id: row.sender },
    values: row.values.map(({ name, value }) => ({ id: `${row.id}-${name}`, name, value })),
  };
}

const listClaimEvents = collectionRoute({
  path: "/api/v2/system/identities/{identityAddress}/claim-events",
  tags: ["identity"],
  summary: "An identity's claim events, newest first",
  permission: "identity:read",
  collection: CLAIM_EVENT_COLLECTION,
  item: ClaimEventSchema,
  listed: "The claim events; facets topic, eventName",
  params: z.object({ identityAddress: AddressSchema.openapi({ param: { name: "identityAddress", in: "path" } }) }),
});

export function claimEventRoutes(app: App, ctx: PluginContext) {
  app.openapi(listClaimEvents, async (c) => {
    const { identityAddress } = c.req.valid("param");
    const page = await systemCollection(
      c,
      ctx,
      CLAIM_EVENT_COLLECTION,
      async (ledger, systemAddress) => {
        await systemIdentity(ledger, systemAddress, identityAddress);
        return claimEventsOf(ledger, identityAddress, systemAddress);
      },
      (rows) => rows.map(toClaimEvent),
    );
    return c.json(page, 200);
  });
}
