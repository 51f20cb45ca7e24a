// External tokens: the live contract inspection, the registration (a registry write), the list, and the legacy list.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { encodeFunctionData, erc20Abi, getAddress } from "viem";
import { ExternalTokenRegistryAbi } from "../../abis/ExternalTokenRegistry.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import {
  collectionQueryParameters,
  collectionRoute,
  parseCollectionQuery,
  runCollection,
} from "../../host/collections/index.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { collection, single } from "../../host/http/envelopes.ts";
import {
  AddressSchema,
  ApprovalBodySchema,
  jsonBody,
  mutationResponses,
  singleResponses,
} from "../../host/http/schemas.ts";
import { submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { EXTERNAL_TOKEN_COLLECTION, systemExternalTokens, toExternalToken } from "./collections.ts";
import { assertEligible, assertRegistered, inspectContract } from "./inspection.ts";
import { ContractInspectionSchema, ExternalTokenSchema, RegisterExternalTokenBodySchema } from "./schemas.ts";

const TAGS = ["externalToken"];
const READ = "token:read";

const inspect = createRoute({
  method: "get",
  path: "/api/v2/contracts/{address}",
  tags: TAGS,
  summary: "Inspect a contract live: code, ERC-20 metadata, what the platform knows it as, registration eligibility",
  description:
    "Read from the chain at request time (the system's external token registry decides eligibility). " +
    "Register as an external token only when registration.eligible is true.",
  middleware: [requirePermission(READ)],
  request: { params: z.object({ address: AddressSchema }) },
  responses: singleResponses(ContractInspectionSchema, "The inspection"),
});

const register = createRoute({
  method: "post",
  path: "/api/v2/external-tokens",
  tags: TAGS,
  summary: "Register an external token in the system (registerToken(tokenAddress, tokenType) on its registry)",
  description:
    "An ineligible address is refused before anything is queued: already-registered with 409 " +
    "RESOURCE_ALREADY_EXISTS, no-code and system-managed with 422 EXTERNAL_TOKEN_NOT_ELIGIBLE (details.blockingReason). " +
    "Completed: data.tokenAddress.",
  middleware: [requirePermission("externalToken:register")],
  request: { body: jsonBody(RegisterExternalTokenBodySchema) },
  responses: mutationResponses,
});

const approve = createRoute({
  method: "post",
  path: "/api/v2/external-tokens/{tokenAddress}/approvals",
  tags: TAGS,
  summary: "Approve a spender of the signing wallet's units of a registered external token (ERC-20 approve)",
  description:
    "E.g. an add-on instance that pulls a payment or denomination asset. Only tokens registered in the system's " +
    "external token registry (404 EXTERNAL_TOKEN_NOT_FOUND otherwise); platform tokens have " +
    "POST /api/v2/tokens/{tokenAddress}/approvals.",
  middleware: [requirePermission("externalToken:approve")],
  request: { params: z.object({ tokenAddress: AddressSchema }), body: jsonBody(ApprovalBodySchema) },
  responses: mutationResponses,
});

const list = collectionRoute({
  path: "/api/v2/external-tokens",
  tags: TAGS,
  summary: "List the system's external tokens, newest registration first",
  description:
    "Sort and filter fields: name, symbol, type, externalRegisteredAt; filter[q] matches name, symbol, type.",
  permission: READ,
  collection: EXTERNAL_TOKEN_COLLECTION,
  item: ExternalTokenSchema,
  listed: "The external tokens; facets type, paused",
});

const legacyList = createRoute({
  method: "get",
  path: "/api/external-token",
  tags: ["legacy"],
  summary: "The system's external tokens (legacy wrapper)",
  description: "The same items, query parameters and order as GET /api/v2/external-tokens, as {tokens, totalCount}.",
  middleware: [requirePermission(READ)],
  request: { query: collectionQueryParameters(EXTERNAL_TOKEN_COLLECTION) },
  responses: {
    200: {
      description: "The external tokens and their total",
      content: {
        "application/json": {
          schema: z.object({ tokens: z.array(ExternalTokenSchema), totalCount: z.number().int() }),
        },
      },
    },
  },
});

export function externalTokenRoutes(app: App, ctx: PluginContext) {
  const page = async (c: Context<AppEnv>) => {
    const query = parseCollectionQuery(new URL(c.req.url).searchParams, EXTERNAL_TOKEN_COLLECTION);
    const chain = await requestChain(c, ctx);
    const result = await runCollection(
      systemExternalTokens(chain.ledger, chain.systemAddress),
      query,
      EXTERNAL_TOKEN_COLLECTION,
    );
    return { query, ...result, items: result.rows.map(toExternalToken) };
  };

  app.openapi(inspect, async (c) => {
    const chain = await requestChain(c, ctx);
    const address = getAddress(c.req.valid("param").address);
    return c.json(single(c, await inspectContract(chain, address)), 200);
  });

  app.openapi(register, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, (chain) => {
      const tokenAddress = getAddress(body.tokenAddress);
      return {
        precheck: () => assertEligible(chain, tokenAddress),
        kind: "externalToken.register",
        to: getAddress(chain.contracts.externalTokenRegistry),
        data: encodeFunctionData({
          abi: ExternalTokenRegistryAbi,
          functionName: "registerToken",
          args: [tokenAddress, body.tokenType],
        }),
      };
    });
  });

  app.openapi(approve, async (c) => {
    const body = c.req.valid("json");
    const tokenAddress = getAddress(c.req.valid("param").tokenAddress);
    return submitSystemWrite(c, ctx, body, (chain) => ({
      precheck: () => assertRegistered(chain, tokenAddress),
      kind: "externalToken.approve",
      to: tokenAddress,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [getAddress(body.spender), BigInt(body.amount)],
      }),
    }));
  });

  app.openapi(list, async (c) => {
    const { query, items, total, facets } = await page(c);
    return c.json(collection(c, items, total, query.page, facets), 200);
  });

  app.openapi(legacyList, async (c) => {
    const { items, total } = await page(c);
    return c.json({ tokens: items, totalCount: total }, 200);
  });
}
