// GET /api/v2/participants: the organisation's participants with the address for a purpose; optionally only those
// eligible for an action on one of its tokens (meta.eligibilityHiddenCount counts the hidden ones).
import { createRoute, type z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { hasPermission } from "../../host/auth/permissions.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import {
  collectionQueryParameters,
  collectionResponseSchema,
  PAGE_OFFSET,
  parseCollectionQuery,
  runCollection,
} from "../../host/collections/index.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { collection } from "../../host/http/envelopes.ts";
import { errorResponses } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import {
  eligibilityPage,
  PARTICIPANT_COLLECTION,
  type ParticipantListQuery,
  ParticipantListQuerySchema,
  ParticipantSchema,
  withRouteSort,
} from "./collections.ts";
import { eligibility } from "./eligibility.ts";
import { participantsQuery } from "./participants-query.ts";

/** Without userSearch a caller sees only these kinds (spec: participant directory permissions). */
const PUBLIC_KINDS = ["asset", "addon"] as const;

const listParticipants = createRoute({
  method: "get",
  path: "/api/v2/participants",
  tags: ["participants"],
  summary: "List the organisation's participants (people, the organisation, assets, claim issuers, addons)",
  description:
    "purpose is required. Sort with sortBy (displayName, address, kind) and sortDirection. Without the userSearch " +
    "permission only asset and addon participants are listed. eligibleForToken[tokenAddress] hides participants " +
    "that could not take part in eligibleForToken[action] (transfer, mint, burn) and reports how many in " +
    "meta.eligibilityHiddenCount; eligibleForToken[reveal]=true lists them with eligible false instead.",
  middleware: [requirePermission("participant:read")],
  request: {
    query: collectionQueryParameters(PARTICIPANT_COLLECTION).extend(ParticipantListQuerySchema.shape),
  },
  responses: {
    200: {
      description: "The participants; meta.eligibilityHiddenCount when ineligible participants are hidden",
      content: { "application/json": { schema: collectionResponseSchema(ParticipantSchema) } },
    },
    ...errorResponses,
  },
});

export function participantListRoutes(app: App, ctx: PluginContext<"custody">) {
  app.openapi(listParticipants, async (c) => {
    // The collection parameters' loose shape widens the inferred type; these keys were validated by their schema.
    const params = c.req.valid("query") as ParticipantListQuery;
    const query = withRouteSort(parseCollectionQuery(new URL(c.req.url).searchParams, PARTICIPANT_COLLECTION), params);
    const chain = await requestChain(c, ctx);
    const { organizationId, roles } = c.get("principal");
    const scope = {
      viewsSchema: ctx.config.INDEX_VIEWS_SCHEMA,
      chainId: chain.chainId,
      organizationId,
      system: chain.systemAddress,
    };
    let base = participantsQuery(chain.ledger, scope, params.purpose);
    if (!hasPermission(roles, "userSearch")) base = base.where("p.kind", "in", [...PUBLIC_KINDS]);

    const tokenAddress = params["eligibleForToken[tokenAddress]"];
    if (!tokenAddress) {
      const { rows, total } = await runCollection(base, query, PARTICIPANT_COLLECTION);
      return c.json(collection(c, rows.map(toParticipant), total, query.page), 200);
    }

    const token = await chain.ledger
      .selectFrom("token")
      .select(["id", "compliance"])
      .where("id", "=", indexedHex(tokenAddress))
      .where("system", "=", indexedHex(chain.systemAddress))
      .executeTakeFirst();
    if (!token) throw new ApiError("TOKEN_NOT_FOUND", { details: { tokenAddress } });
    // Eligibility is known only after asking the chain, so the filtered set is read whole and paged here.
    const all = await runCollection(
      base,
      { ...query, page: { offset: 0, limit: PAGE_OFFSET.max } },
      PARTICIPANT_COLLECTION,
    );
    const verdicts = await eligibility(
      chain.client,
      { address: getAddress(token.id), compliance: token.compliance ? getAddress(token.compliance) : null },
      params["eligibleForToken[action]"] ?? "transfer",
      await ctx.custody.primaryAddress(organizationId),
      all.rows.map((row) => row.transferAddress),
    );
    const judged = all.rows.map((row, i) => ({ ...toParticipant(row), eligible: verdicts[i] }));
    const shown = eligibilityPage(judged, params["eligibleForToken[reveal]"] === "true", query.page);
    const body = collection(c, shown.rows, shown.total, query.page);
    const meta = shown.hidden === undefined ? body.meta : { ...body.meta, eligibilityHiddenCount: shown.hidden };
    return c.json({ ...body, meta }, 200);
  });
}

function toParticipant(row: { id: string; kind: string; displayName: string; address: string | null }) {
  return {
    id: row.id,
    kind: row.kind as z.infer<typeof ParticipantSchema>["kind"],
    address: row.address,
    displayName: row.displayName,
  };
}
