// Reads of the system's claim policy: its topic schemes and its trusted issuers with their topics, as collections.
import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { collectionRoute, systemCollection } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import {
  activeTopicSchemes,
  activeTrustedIssuers,
  TOPIC_SCHEME_COLLECTION,
  type TopicSchemeRow,
  TRUSTED_ISSUER_COLLECTION,
  type TrustedIssuerRow,
} from "./claim-policy-collections.ts";
import { TopicRefSchema, topicNames, topicRef } from "./topic-names.ts";

const TopicSchemeSchema = z
  .object({
    topicId: z.string().openapi({ description: "Topic id, decimal (uint256(keccak256(name)))" }),
    name: z.string(),
    signature: z.string().openapi({ description: "The claim data's ABI parameters, e.g. `string level`" }),
    registry: z.string().openapi({ description: "The system's topic scheme registry" }),
    registeredAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("TopicScheme");

const TrustedIssuerSchema = z
  .object({
    issuerAddress: z.string().openapi({ description: "The claim issuer's identity contract, checksummed" }),
    claimTopics: z.array(TopicRefSchema).openapi({ description: "The topics the issuer is trusted for" }),
    registry: z.string().openapi({ description: "The system's trusted issuers registry" }),
    addedAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("TrustedIssuer");

const toTopicScheme = (row: TopicSchemeRow): z.infer<typeof TopicSchemeSchema> => ({
  topicId: row.topicId.toString(),
  name: row.name,
  signature: row.signature,
  registry: getAddress(row.registry),
  registeredAt: row.registeredTime.toISOString(),
  updatedAt: row.updatedTime.toISOString(),
});

const toTrustedIssuer = (row: TrustedIssuerRow, names: ReadonlyMap<string, string>) => ({
  issuerAddress: getAddress(row.issuer),
  claimTopics: row.claimTopics.map((topic) => topicRef(names, BigInt(topic))),
  registry: getAddress(row.registry),
  addedAt: row.addedTime.toISOString(),
  updatedAt: row.updatedTime.toISOString(),
});

const listTopicSchemes = collectionRoute({
  path: "/api/v2/system/topic-schemes",
  tags: ["identity"],
  summary: "List the system's claim topics (topic schemes), by name",
  description:
    "The topic schemes registered in the topic scheme registry of the organisation's system on the request's " +
    "chain (removed ones are not listed). Topic ids are decimal strings. Filter by name, topicId, signature, " +
    "registeredAt and updatedAt; `filter[q]` searches name and signature.",
  permission: "identity:read",
  collection: TOPIC_SCHEME_COLLECTION,
  item: TopicSchemeSchema,
  listed: "The topic schemes",
});

const listTrustedIssuers = collectionRoute({
  path: "/api/v2/system/trusted-issuers",
  tags: ["identity"],
  summary: "List the claim issuers the system trusts, with their topics, oldest first",
  description:
    "The issuers in the trusted issuers registry of the organisation's system on the request's chain (removed ones " +
    "are not listed), each with the topics it is trusted for: decimal id and scheme name. `filter[claimTopic]` " +
    "takes a decimal topic id (issuers trusted for it); facet claimTopic counts the issuers per topic id.",
  permission: "identity:read",
  collection: TRUSTED_ISSUER_COLLECTION,
  item: TrustedIssuerSchema,
  listed: "The trusted issuers; facet claimTopic",
});

export function claimPolicyReadRoutes(app: App, ctx: PluginContext) {
  app.openapi(listTopicSchemes, async (c) => {
    const page = await systemCollection(c, ctx, TOPIC_SCHEME_COLLECTION, activeTopicSchemes, (rows) =>
      rows.map(toTopicScheme),
    );
    return c.json(page, 200);
  });

  app.openapi(listTrustedIssuers, async (c) => {
    const page = await systemCollection(
      c,
      ctx,
      TRUSTED_ISSUER_COLLECTION,
      activeTrustedIssuers,
      async (rows, chain) => {
        const topics = rows.flatMap((row) => row.claimTopics.map(BigInt));
        const names = await topicNames(chain.ledger, chain.systemAddress, topics);
        return rows.map((row) => toTrustedIssuer(row, names));
      },
    );
    return c.json(page, 200);
  });
}
