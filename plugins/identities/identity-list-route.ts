// GET /api/v2/system/identities: the system's identities with their registration and claims, e.g. by wallet.
import { z } from "@hono/zod-openapi";
import { alpha2OfNumeric } from "../../domain/geo/iso3166.ts";
import { collectionRoute, systemCollection } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { ClaimSummary } from "./claim-summary.ts";
import { withClaimSummaries } from "./entities-query.ts";
import { IDENTITY_COLLECTION, IDENTITY_STATUSES, type IdentityRow, systemIdentities } from "./identity-collection.ts";

const IdentitySchema = z
  .object({
    id: z.string().openapi({ description: "The identity contract's address, lowercase" }),
    wallet: z.string().openapi({ description: "The wallet (or contract, isContract) the identity belongs to" }),
    isContract: z.boolean(),
    status: z.enum(IDENTITY_STATUSES).openapi({ description: "registered in the system's identity registry, or not" }),
    country: z.string().nullable().openapi({ description: "ISO 3166-1 alpha-2 of the registration" }),
    verificationBadges: z.array(z.string()).openapi({ description: "Topics of its claims from trusted issuers" }),
    activeClaimsCount: z.number().int(),
    revokedClaimsCount: z.number().int(),
    untrustedClaimsCount: z.number().int(),
    createdAt: z.string(),
    lastActivity: z.string().openapi({ description: "Time of its latest creation, registration or claim event" }),
    deployedInTransaction: z.string(),
  })
  .openapi("Identity");

function toIdentity(row: IdentityRow, claims: ClaimSummary): z.infer<typeof IdentitySchema> {
  return {
    id: row.id,
    wallet: row.account,
    isContract: row.isContract,
    status: row.status,
    country: row.country === null ? null : alpha2OfNumeric(row.country),
    verificationBadges: claims.verificationBadges,
    activeClaimsCount: claims.activeClaimsCount,
    revokedClaimsCount: claims.revokedClaimsCount,
    untrustedClaimsCount: claims.untrustedClaimsCount,
    createdAt: row.createdTime.toISOString(),
    lastActivity: row.lastActivity.toISOString(),
    deployedInTransaction: row.deployedInTransaction,
  };
}

const listIdentities = collectionRoute({
  path: "/api/v2/system/identities",
  tags: ["identity"],
  summary: "List the system's identities, newest first; look one up by wallet with filter[wallet]",
  description:
    "Every identity the factory of the organisation's system on the request's chain created, for a wallet or a " +
    "contract (contracts alone: GET /api/v2/system/entities). `filter[wallet]=0x…` finds the identity of a wallet " +
    "(any case); `filter[q]` searches wallet and identity address. Facets: status, isContract.",
  permission: "identity:read",
  collection: IDENTITY_COLLECTION,
  item: IdentitySchema,
  listed: "The identities; facets status, isContract",
});

export function identityListRoute(app: App, ctx: PluginContext) {
  app.openapi(listIdentities, async (c) => {
    const page = await systemCollection(c, ctx, IDENTITY_COLLECTION, systemIdentities, withClaimSummaries(toIdentity));
    return c.json(page, 200);
  });
}
