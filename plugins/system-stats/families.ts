// The statistics resources the spec names, each field backed by one of the index's counters.
import { METRICS, type Metric } from "../../domain/statistics/metrics.ts";
import type { Totals } from "./counters.ts";

export type Family = Readonly<Record<string, Metric>>;

export const IDENTITY_COUNTERS = {
  userIdentitiesCreatedCount: METRICS.userIdentitiesCreated,
  activeUserIdentitiesCount: METRICS.activeUserIdentities,
} as const satisfies Family;

export const CLAIM_STATS = {
  totalIssuedClaims: METRICS.claimsIssued,
  totalActiveClaims: METRICS.claimsActive,
  totalRemovedClaims: METRICS.claimsRemoved,
  totalRevokedClaims: METRICS.claimsRevoked,
} as const satisfies Family;

export const TRUSTED_ISSUER_STATS = {
  totalAddedTrustedIssuers: METRICS.trustedIssuersAdded,
  totalActiveTrustedIssuers: METRICS.trustedIssuersActive,
  totalRemovedTrustedIssuers: METRICS.trustedIssuersRemoved,
} as const satisfies Family;

export const TOPIC_SCHEME_STATS = {
  totalRegisteredTopicSchemes: METRICS.topicSchemesRegistered,
  totalActiveTopicSchemes: METRICS.topicSchemesActive,
  totalRemovedTopicSchemes: METRICS.topicSchemesRemoved,
} as const satisfies Family;

export function metricsOf(family: Family): Metric[] {
  return Object.values(family);
}

/** The family's fields from counter totals (a counter without changes is 0). */
export function fieldsOf<F extends Family>(family: F, totals: Totals): { [K in keyof F]: number } {
  return Object.fromEntries(Object.entries(family).map(([field, metric]) => [field, totals.get(metric) ?? 0])) as {
    [K in keyof F]: number;
  };
}
