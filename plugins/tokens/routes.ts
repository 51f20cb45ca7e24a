// Token reads from the index (the token with its features and compliance modules).
import { createRoute, z } from "@hono/zod-openapi";
import { type Address, getAddress } from "viem";
import { tryDecodeControlParams } from "../../domain/compliance/control-decode.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { type RequestChain, requestChain } from "../../host/chain/request-chain.ts";
import { isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { AddressSchema, errorResponses, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { type ShownFeature, toFeatures } from "./feature-values.ts";
import { TokenFeatureSchema, TokenSchema } from "./schemas.ts";

export function toToken(
  row: LedgerTables["token"] & { holderCount: number },
  features: ShownFeature[] = [],
  modules: LedgerTables["tokenComplianceModule"][] = [],
) {
  return {
    id: row.id,
    address: getAddress(row.id),
    chainId: row.chainId,
    type: row.type,
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    totalSupply: row.totalSupply.toString(),
    holderCount: row.holderCount,
    features,
    compliance: row.compliance
      ? {
          address: getAddress(row.compliance),
          modules: modules.map((m) => ({
            typeId: m.typeId,
            module: getAddress(m.module),
            params: tryDecodeControlParams(m.typeId, m.params) ?? null,
            encodedParams: m.params,
          })),
        }
      : null,
    paused: row.paused,
    system: row.system,
    createdBy: { id: row.createdBy },
    deployedInTransaction: row.deployedInTransaction,
    createdAt: isoFromSeconds(row.createdAt),
  };
}

/** The token at `address` in the caller's system on the request chain, or TOKEN_NOT_FOUND. */
export async function findOrgToken(chain: RequestChain, address: string) {
  const row = await chain.ledger
    .selectFrom("token")
    .selectAll()
    .where("id", "=", address.toLowerCase() as Address)
    .where("system", "=", chain.systemAddress.toLowerCase() as Address)
    .executeTakeFirst();
  if (!row) throw new ApiError("TOKEN_NOT_FOUND", { details: { address } });
  return row;
}

/** The token's holders: its balances above zero (an index range scan on token_balance's key). */
export function holderBalances(chain: RequestChain, token: Address) {
  return chain.ledger.selectFrom("tokenBalance").where("token", "=", token).where("value", ">", 0n);
}

/** Counted from the balances, never a stored counter. */
async function holderCount(chain: RequestChain, token: Address): Promise<number> {
  const { n } = await holderBalances(chain, token)
    .select((eb) => eb.fn.countAll<bigint>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** A token's attached features in attachment order. */
export function tokenFeatures(chain: RequestChain, token: Address) {
  return chain.ledger.selectFrom("tokenFeature").selectAll().where("token", "=", token).orderBy("position").execute();
}

/** The token's instance of `featureId`, or TOKEN_FEATURE_NOT_ATTACHED naming the features it has. */
export async function attachedFeature(chain: RequestChain, token: LedgerTables["token"], featureId: string) {
  const feature = await chain.ledger
    .selectFrom("tokenFeature")
    .selectAll()
    .where("token", "=", token.id)
    .where("featureId", "=", featureId)
    .executeTakeFirst();
  if (!feature) {
    throw new ApiError("TOKEN_FEATURE_NOT_ATTACHED", {
      message: `The token does not have the ${featureId} feature`,
      details: { address: getAddress(token.id), featureId, features: token.featureIds },
    });
  }
  return feature;
}

const getTokenAt = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["token"],
    summary: "Read a token from the index, with its features' current values and its compliance modules",
    middleware: [requirePermission("token:read")],
    request: { params: z.object({ address: AddressSchema }) },
    responses: { 200: jsonResponse(z.object({ data: TokenSchema, links: linksSelf }), "The token"), ...errorResponses },
  });

const getFeaturesAt = (path: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["token"],
    summary: "List the features attached to a token and their configuration",
    middleware: [requirePermission("token:read")],
    request: { params: z.object({ address: AddressSchema }) },
    responses: {
      200: jsonResponse(z.object({ data: z.array(TokenFeatureSchema), links: linksSelf }), "The features"),
      ...errorResponses,
    },
  });

export function tokenRoutes(app: App, ctx: PluginContext) {
  for (const path of ["/api/v2/token/{address}", "/api/v2/tokens/{address}"]) {
    app.openapi(getTokenAt(path), async (c) => {
      const { address } = c.req.valid("param");
      const chain = await requestChain(c, ctx);
      const token = await findOrgToken(chain, address);
      const [holders, features, modules] = await Promise.all([
        holderCount(chain, token.id),
        tokenFeatures(chain, token.id),
        chain.ledger
          .selectFrom("tokenComplianceModule")
          .selectAll()
          .where("token", "=", token.id)
          .orderBy("addedAt")
          .execute(),
      ]);
      const data = toToken({ ...token, holderCount: holders }, await toFeatures(chain, token, features), modules);
      return c.json(single(c, data), 200);
    });
  }

  for (const path of ["/api/v2/token/{address}/features", "/api/v2/tokens/{address}/features"]) {
    app.openapi(getFeaturesAt(path), async (c) => {
      const { address } = c.req.valid("param");
      const chain = await requestChain(c, ctx);
      const token = await findOrgToken(chain, address);
      return c.json(single(c, await toFeatures(chain, token, await tokenFeatures(chain, token.id))), 200);
    });
  }
}
