// The counters the index keeps per system (ponder.schema.ts system_stat_hour) and the statistics routes read.
export const METRICS = {
  userIdentitiesCreated: "identity.user-created",
  /** User identities registered in the system's identity registry (pending = created - active). */
  activeUserIdentities: "identity.user-active",
  claimsIssued: "claim.issued",
  claimsActive: "claim.active",
  claimsRemoved: "claim.removed",
  claimsRevoked: "claim.revoked",
  trustedIssuersAdded: "trusted-issuer.added",
  trustedIssuersActive: "trusted-issuer.active",
  trustedIssuersRemoved: "trusted-issuer.removed",
  topicSchemesRegistered: "topic-scheme.registered",
  topicSchemesActive: "topic-scheme.active",
  topicSchemesRemoved: "topic-scheme.removed",
} as const;

export type Metric = (typeof METRICS)[keyof typeof METRICS];

export const HOUR_SECONDS = 3600n;

/** The start of the hour `timestamp` (unix seconds) falls in. */
export function hourOf(timestamp: bigint): bigint {
  return timestamp - (timestamp % HOUR_SECONDS);
}
