// The system's statistics under /api/v2/system/stats/: identity count and series, claim, trusted-issuer and
// topic-scheme snapshots, ranges and presets, topic scheme coverage and assets by country. All from the index,
// scoped to the system.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { toHex } from "viem";
import type { Metric } from "../../domain/statistics/metrics.ts";
import { presetRange, type StatRange, StatRangeSchema, toStatRange } from "../../domain/statistics/time-range.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { indexedRead } from "../../host/cache/indexed-reads.ts";
import { type RequestChain, requestChain } from "../../host/chain/request-chain.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { counterSeries, counterTotals } from "./counters.ts";
import { countryAssetCount } from "./country-assets.ts";
import { topicCoverage } from "./coverage.ts";
import {
  CLAIM_STATS,
  type Family,
  fieldsOf,
  IDENTITY_COUNTERS,
  metricsOf,
  TOPIC_SCHEME_STATS,
  TRUSTED_ISSUER_STATS,
} from "./families.ts";
import { PresetParamsSchema, RangeQuerySchema } from "./range-params.ts";

const STATS = "/api/v2/system/stats";
const base = { tags: ["system"], middleware: [requirePermission("systemStats:read")] };

const ok = <T extends z.ZodType>(schema: T, description: string) => ({
  200: jsonResponse(z.object({ data: schema, links: linksSelf }), description),
  ...errorResponses,
});

/** The family's fields as integers (typed loosely: the fields are known at runtime). */
const countsShape = (family: Family): Record<string, z.ZodType> =>
  Object.fromEntries(Object.keys(family).map((field) => [field, z.number().int()]));

/** The explicit range of `?interval&from&to`, or the preset of the path. */
const explicit = (query: z.infer<typeof RangeQuerySchema>): StatRange => ({ ...query, isPreset: false });

async function systemOf(c: Context<AppEnv>, ctx: PluginContext) {
  return requestChain(c, ctx);
}

// The answers that do not move with the clock are kept per index version (host/cache/indexed-reads.ts); series are
// not: a preset's window ends now.
const totalsOf = (c: Context<AppEnv>, { ledger, systemAddress }: RequestChain, metrics: readonly Metric[]) =>
  indexedRead(c, `stat-totals ${systemAddress} ${metrics.join(",")}`, () =>
    counterTotals(ledger, systemAddress, metrics),
  );

/** Snapshot, range and preset routes of one counter family, e.g. claim-stat-snapshots/current. */
function familyRoutes(app: App, ctx: PluginContext, slug: string, name: string, family: Family) {
  const Counts = z.object(countsShape(family)).openapi(`${name}Snapshot`);
  const Point = z.object({ timestamp: z.string(), ...countsShape(family) }).openapi(`${name}Point`);
  const Series = z.object({ range: StatRangeSchema, data: z.array(Point) }).openapi(`${name}Range`);
  const metrics = metricsOf(family);

  const series = async (c: Context<AppEnv>, range: StatRange) => {
    const { systemAddress, ledger } = await systemOf(c, ctx);
    const points = await counterSeries(ledger, systemAddress, metrics, range);
    const data = points.map(({ timestamp, totals }) => ({ timestamp, ...fieldsOf(family, totals) }));
    return c.json(single(c, { range: toStatRange(range), data }), 200);
  };

  const snapshot = createRoute({
    ...base,
    method: "get",
    path: `${STATS}/${slug}-snapshots/current`,
    summary: `Current ${name} totals`,
    responses: ok(Counts, "The totals"),
  });
  app.openapi(snapshot, async (c) => {
    return c.json(single(c, fieldsOf(family, await totalsOf(c, await systemOf(c, ctx), metrics))), 200);
  });

  const ranges = createRoute({
    ...base,
    method: "get",
    path: `${STATS}/${slug}-ranges`,
    summary: `${name} totals at the end of each bucket of a window (from after to is refused)`,
    request: { query: RangeQuerySchema },
    responses: ok(Series, "The series"),
  });
  app.openapi(ranges, (c) => series(c, explicit(c.req.valid("query"))));

  const presets = createRoute({
    ...base,
    method: "get",
    path: `${STATS}/${slug}-range-presets/{preset}`,
    summary: `${name} totals over a preset window: trailing24Hours (hourly) or trailing7Days (daily)`,
    request: { params: PresetParamsSchema },
    responses: ok(Series, "The series"),
  });
  app.openapi(presets, (c) => series(c, presetRange(c.req.valid("param").preset)));
}

const IdentityCountSchema = z
  .object({
    userIdentitiesCreatedCount: z.number().int(),
    activeUserIdentitiesCount: z.number().int().openapi({ description: "Registered in the identity registry" }),
    pendingRegistrationsCount: z.number().int().openapi({ description: "Created but not registered" }),
  })
  .openapi("IdentityCount");

const IdentitySeriesSchema = z
  .object({
    range: StatRangeSchema,
    identityStats: z.array(z.object({ timestamp: z.string(), activeUserIdentitiesCount: z.number().int() })),
  })
  .openapi("IdentityStatSeries");

const CoverageSchema = z
  .object({
    totalActiveTopicSchemes: z.number().int(),
    missingTopics: z.array(
      z.object({
        id: z.string().openapi({ description: "Topic id as bytes32" }),
        topicId: z.string().openapi({ description: "Topic id, decimal" }),
        name: z.string(),
        signature: z.string(),
        isGlobal: z.boolean().openapi({ description: "Registered system-wide (every topic of the system registry)" }),
      }),
    ),
  })
  .openapi("TopicSchemeClaimsCoverage");

function identityRoutes(app: App, ctx: PluginContext) {
  const metrics = metricsOf(IDENTITY_COUNTERS);

  const series = async (c: Context<AppEnv>, range: StatRange) => {
    const { systemAddress, ledger } = await systemOf(c, ctx);
    const points = await counterSeries(ledger, systemAddress, metrics, range);
    const identityStats = points.map(({ timestamp, totals }) => ({
      timestamp,
      activeUserIdentitiesCount: fieldsOf(IDENTITY_COUNTERS, totals).activeUserIdentitiesCount,
    }));
    return c.json(single(c, { range: toStatRange(range), identityStats }), 200);
  };

  const count = createRoute({
    ...base,
    method: "get",
    path: `${STATS}/identity-count`,
    summary: "User identities created, registered (active) and pending registration",
    responses: ok(IdentityCountSchema, "The identity count"),
  });
  app.openapi(count, async (c) => {
    const totals = fieldsOf(IDENTITY_COUNTERS, await totalsOf(c, await systemOf(c, ctx), metrics));
    const pendingRegistrationsCount = totals.userIdentitiesCreatedCount - totals.activeUserIdentitiesCount;
    return c.json(single(c, { ...totals, pendingRegistrationsCount }), 200);
  });

  const timeseries = createRoute({
    ...base,
    method: "get",
    path: `${STATS}/identity-stat-timeseries`,
    summary: "Registered user identities at the end of each bucket of a window (from after to is refused)",
    request: { query: RangeQuerySchema },
    responses: ok(IdentitySeriesSchema, "The series"),
  });
  app.openapi(timeseries, (c) => series(c, explicit(c.req.valid("query"))));

  const preset = createRoute({
    ...base,
    method: "get",
    path: `${STATS}/identity-stat-timeseries/presets/{preset}`,
    summary: "Registered user identities over a preset window: trailing24Hours (hourly) or trailing7Days (daily)",
    request: { params: PresetParamsSchema },
    responses: ok(IdentitySeriesSchema, "The series"),
  });
  app.openapi(preset, (c) => series(c, presetRange(c.req.valid("param").preset)));
}

const CountryAssetCountSchema = z
  .object({
    totalsByCountry: z.record(z.string(), z.number().int()).openapi({
      description: "Assets per ISO 3166-1 numeric country code (of the asset's registered identity)",
    }),
    totalCountries: z.number().int(),
    totalAssets: z.number().int().openapi({ description: "Every asset of the system, with a country or not" }),
  })
  .openapi("CountryAssetCount");

function countryAssetRoute(app: App, ctx: PluginContext) {
  const route = createRoute({
    ...base,
    method: "get",
    path: `${STATS}/country-asset-count`,
    summary: "The system's assets by the country their identity is registered with",
    responses: ok(CountryAssetCountSchema, "The count"),
  });
  app.openapi(route, async (c) => {
    const { systemAddress, ledger } = await systemOf(c, ctx);
    const counts = await indexedRead(c, `stat-country-assets ${systemAddress}`, () =>
      countryAssetCount(ledger, systemAddress),
    );
    return c.json(single(c, counts), 200);
  });
}

function coverageRoute(app: App, ctx: PluginContext) {
  const coverage = createRoute({
    ...base,
    method: "get",
    path: `${STATS}/topic-scheme-claims-coverage`,
    summary: "Active topic schemes without an active claim on the chain",
    responses: ok(CoverageSchema, "The coverage"),
  });
  app.openapi(coverage, async (c) => {
    const { systemAddress, chainId, ledger } = await systemOf(c, ctx);
    const { totalActiveTopicSchemes, missing } = await indexedRead(c, `stat-coverage ${systemAddress} ${chainId}`, () =>
      topicCoverage(ledger, systemAddress, chainId),
    );
    const missingTopics = missing.map((scheme) => ({
      id: toHex(scheme.topicId, { size: 32 }),
      topicId: scheme.topicId.toString(),
      name: scheme.name,
      signature: scheme.signature,
      isGlobal: true,
    }));
    return c.json(single(c, { totalActiveTopicSchemes, missingTopics }), 200);
  });
}

export function statsRoutes(app: App, ctx: PluginContext) {
  identityRoutes(app, ctx);
  familyRoutes(app, ctx, "claim-stat", "ClaimStats", CLAIM_STATS);
  familyRoutes(app, ctx, "trusted-issuer-stat", "TrustedIssuerStats", TRUSTED_ISSUER_STATS);
  familyRoutes(app, ctx, "topic-scheme-stat", "TopicSchemeStats", TOPIC_SCHEME_STATS);
  coverageRoute(app, ctx);
  countryAssetRoute(app, ctx);
}
