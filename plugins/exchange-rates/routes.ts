// The spec's seven exchange-rate routes: the system's feed-backed rates (index), a pair with its manual override
// (platform table) and history, the provider's currencies, and the sync that writes the provider's rates on chain.

import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import {
  errorResponses,
  jsonBody,
  jsonResponse,
  linksSelf,
  mutationResponses,
  singleResponses,
  WalletVerificationSchema,
} from "../../host/http/schemas.ts";
import { submitChainWrite } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { HISTORY_COLLECTION, RATE_COLLECTION } from "./collections.ts";
import { supportedCurrencies } from "./currencies.ts";
import { pairHistory, toHistoryItem } from "./history-query.ts";
import { removeOverride, replaceOverride } from "./overrides-store.ts";
import { rateProvider } from "./provider.ts";
import { readPair, type Scope, systemFeeds, withOverrides } from "./rates-query.ts";
import {
  ExchangeRateHistoryItemSchema,
  ExchangeRateSchema,
  OverrideBodySchema,
  PairParams,
  SupportedCurrenciesSchema,
} from "./schemas.ts";
import type { ExchangeRateSettings } from "./settings.ts";
import { publishRatesCall, SYNC_KIND } from "./sync.ts";

const TAGS = ["exchangeRates"];
const BASE = "/api/v2/exchange-rates";
const PAIR = `${BASE}/{baseCurrency}/{quoteCurrency}`;
const RateResponse = z.object({ data: ExchangeRateSchema, links: linksSelf });

const listRates = collectionRoute({
  path: BASE,
  tags: TAGS,
  summary: "The system's feed-backed exchange rates (a manual override wins over its feed)",
  permission: "exchangeRates:list",
  collection: RATE_COLLECTION,
  item: ExchangeRateSchema,
  listed: "One rate per feed of the organisation's system; facet baseCurrency",
});

type PairPermission = "exchangeRates:read" | "exchangeRates:remove";
const pairRoute = (method: "get" | "delete", permission: PairPermission, summary: string, description: string) =>
  createRoute({
    method,
    path: PAIR,
    tags: TAGS,
    summary,
    description,
    middleware: [requirePermission(permission)],
    request: { params: PairParams },
    responses: { 200: jsonResponse(RateResponse, "The pair's rate"), ...errorResponses },
  });

const getRate = pairRoute(
  "get",
  "exchangeRates:read",
  "One pair's rate",
  "404 EXCHANGE_RATE_NOT_FOUND when neither a feed nor an override holds it.",
);
const putRate = createRoute({
  method: "put",
  path: PAIR,
  tags: TAGS,
  summary: "Set a manual override for the pair",
  description:
    "Stored by the platform (not on chain); it wins over the feed until DELETE removes it. Replaces a previous one.",
  middleware: [requirePermission("exchangeRates:update")],
  request: { params: PairParams, body: jsonBody(OverrideBodySchema) },
  responses: { 200: jsonResponse(RateResponse, "The pair's rate, now the override's"), ...errorResponses },
});
const deleteRate = pairRoute(
  "delete",
  "exchangeRates:remove",
  "Remove the pair's manual override",
  "Answers the pair's rate without it (the feed's, or rate null); 404 EXCHANGE_RATE_OVERRIDE_NOT_FOUND without one.",
);

const listHistory = collectionRoute({
  path: `${PAIR}/history`,
  tags: TAGS,
  summary: "A pair's history: its feed's values and the manual overrides (removed ones included)",
  permission: "exchangeRates:list",
  collection: HISTORY_COLLECTION,
  item: ExchangeRateHistoryItemSchema,
  listed: "Feed rounds and overrides, newest first; facet source",
  params: PairParams,
});

const getCurrencies = createRoute({
  method: "get",
  path: `${BASE}/supported-currencies`,
  tags: TAGS,
  summary: "The configured provider's key and its currencies, sorted (cached for an hour)",
  middleware: [requirePermission("exchangeRates:list")],
  responses: singleResponses(SupportedCurrenciesSchema, "Provider and currencies"),
});

const syncRates = createRoute({
  method: "post",
  path: `${BASE}/sync`,
  tags: TAGS,
  summary: "Pull the configured provider's rates and write them to the system's feeds on chain",
  description:
    "One chain write (publishRates on the system's feed registry): a pair without a feed gets one, then every feed a " +
    "new round. The mutation envelope; its result counts ratesUpdated and feedsCreated.",
  middleware: [requirePermission("exchangeRates:sync")],
  request: {
    body: jsonBody(z.object({ walletVerification: WalletVerificationSchema.optional() }).strict(), false),
  },
  // submitChainWrite answers: the shared mutation envelopes.
  responses: mutationResponses,
});

export function exchangeRateRoutes(app: App, ctx: PluginContext<never, ExchangeRateSettings>) {
  const provider = rateProvider(ctx.settings);
  const currencies = supportedCurrencies(provider);

  async function scopeOf(c: Context<AppEnv>): Promise<Scope> {
    const chain = await requestChain(c, ctx);
    const { organizationId } = c.get("principal");
    return { organizationId, chainId: chain.chainId, system: chain.systemAddress, ledger: chain.ledger };
  }

  app.openapi(listRates, async (c) => {
    let scope: Scope;
    const feeds = async () => {
      scope = await scopeOf(c);
      return systemFeeds(scope.ledger, scope.system);
    };
    return c.json(await collectionPage(c, RATE_COLLECTION, feeds, (rows) => withOverrides(ctx.db, scope, rows)), 200);
  });

  app.openapi(getRate, async (c) => {
    const pair = c.req.valid("param");
    const rate = await readPair(ctx.db, await scopeOf(c), pair);
    if (!rate) throw new ApiError("EXCHANGE_RATE_NOT_FOUND", { details: pair });
    return c.json(single(c, rate), 200);
  });

  app.openapi(putRate, async (c) => {
    const pair = c.req.valid("param");
    const { rate, effectiveAt } = c.req.valid("json");
    const scope = await scopeOf(c);
    const key = { organizationId: scope.organizationId, chainId: scope.chainId, ...pair };
    await replaceOverride(ctx.db, key, { rate, effectiveAt, createdBy: c.get("principal").userId });
    return c.json(single(c, (await readPair(ctx.db, scope, pair))!), 200);
  });

  app.openapi(deleteRate, async (c) => {
    const pair = c.req.valid("param");
    const scope = await scopeOf(c);
    if (!(await removeOverride(ctx.db, scope, pair)))
      throw new ApiError("EXCHANGE_RATE_OVERRIDE_NOT_FOUND", { details: pair });
    const rate = await readPair(ctx.db, scope, pair);
    const none = {
      ...pair,
      rate: null,
      effectiveAt: null,
      updatedAt: null,
      feedAddress: null,
      source: "feed" as const,
    };
    return c.json(single(c, rate ?? none), 200);
  });

  app.openapi(listHistory, async (c) => {
    const pair = c.req.valid("param");
    const history = async () => pairHistory(ctx.db, ctx.config.INDEX_VIEWS_SCHEMA, await scopeOf(c), pair);
    return c.json(await collectionPage(c, HISTORY_COLLECTION, history, (rows) => rows.map(toHistoryItem)), 200);
  });

  app.openapi(getCurrencies, async (c) => c.json(single(c, await currencies()), 200));

  app.openapi(syncRates, async (c) => {
    const chain = await requestChain(c, ctx);
    const registry = chain.contracts.exchangeRateFeedRegistry;
    if (!registry) throw new ApiError("EXCHANGE_RATE_FEEDS_UNAVAILABLE");
    const body = await c.req.json().catch(() => ({}));
    await verifyWalletForWrite(c, ctx.db.platform, (body as { walletVerification?: never }).walletVerification);
    const data = publishRatesCall(await provider.fetch());
    return submitChainWrite(c, ctx, { chainId: chain.chainId, kind: SYNC_KIND, to: registry as `0x${string}`, data });
  });
}
