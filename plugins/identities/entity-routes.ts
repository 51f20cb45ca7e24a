// Entities: the identities of contracts (e.g. tokens) in the system. List them; create one for a contract.
import { createRoute, z } from "@hono/zod-openapi";
import { encodeFunctionData, getAddress } from "viem";
import { IdentityFactoryAbi } from "../../abis/IdentityFactory.ts";
import { alpha2OfNumeric } from "../../domain/geo/iso3166.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { collectionRoute, systemCollection } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import { jsonBody, mutationResponses } from "../../host/http/schemas.ts";
import { shortAddress } from "../../host/mutations/describe.ts";
import { submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { ClaimSummary } from "./claim-summary.ts";
import { type EntityRow, systemEntities, withClaimSummaries } from "./entities-query.ts";
import { ENTITY_COLLECTION, ENTITY_STATUSES } from "./entity-collection.ts";
import { CreateEntityBodySchema } from "./write-schemas.ts";

export const EntitySchema = z
  .object({
    id: z.string().openapi({ description: "The identity contract's address" }),
    contractAddress: z.string().nullable(),
    contractName: z.string().nullable(),
    entityType: z.string().nullable().openapi({ description: "The token type, e.g. bond, equity, fund, deposit" }),
    isContract: z.boolean(),
    status: z.enum(ENTITY_STATUSES),
    country: z.string().nullable().openapi({ description: "ISO 3166-1 alpha-2 of the registration" }),
    verificationBadges: z.array(z.string()).openapi({ description: "Topics of its claims from trusted issuers" }),
    lastActivity: z.string().openapi({ description: "Time of its latest creation, registration or claim event" }),
    activeClaimsCount: z.number().int(),
    revokedClaimsCount: z.number().int(),
    untrustedClaimsCount: z.number().int(),
    deployedInTransaction: z.string(),
  })
  .openapi("Entity");

function toEntity(row: EntityRow, claims: ClaimSummary) {
  return {
    id: row.id,
    contractAddress: row.contractAddress,
    contractName: row.contractName,
    entityType: row.entityType,
    isContract: true,
    status: row.status,
    country: row.country === null ? null : alpha2OfNumeric(row.country),
    verificationBadges: claims.verificationBadges,
    lastActivity: row.lastActivity.toISOString(),
    activeClaimsCount: claims.activeClaimsCount,
    revokedClaimsCount: claims.revokedClaimsCount,
    untrustedClaimsCount: claims.untrustedClaimsCount,
    deployedInTransaction: row.deployedInTransaction,
  };
}

const listEntities = collectionRoute({
  path: "/api/v2/system/entities",
  tags: ["identity"],
  summary: "List the system's entities (contract identities), oldest activity first",
  permission: "identity:read",
  collection: ENTITY_COLLECTION,
  item: EntitySchema,
  listed: "The entities; facets entityType, status",
});

const createEntity = createRoute({
  method: "post",
  path: "/api/v2/system/entities",
  tags: ["identity"],
  summary: "Create a contract's identity (an entity, pending until registered with POST /api/v2/system/identities)",
  description: "The signing wallet manages the identity, so the platform can put claims on it.",
  middleware: [requirePermission("identity:manage")],
  request: { body: jsonBody(CreateEntityBodySchema) },
  responses: mutationResponses,
});

export function entityRoutes(app: App, ctx: PluginContext) {
  app.openapi(listEntities, async (c) => {
    const page = await systemCollection(c, ctx, ENTITY_COLLECTION, systemEntities, withClaimSummaries(toEntity));
    return c.json(page, 200);
  });

  app.openapi(createEntity, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, (chain, signer) => ({
      kind: "entity.create",
      description: `Create the identity of contract ${shortAddress(body.contractAddress)}`,
      to: getAddress(chain.contracts.identityFactory),
      data: encodeFunctionData({
        abi: IdentityFactoryAbi,
        functionName: "createContractIdentity",
        args: [getAddress(body.contractAddress), signer],
      }),
    }));
  });
}
