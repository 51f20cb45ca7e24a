// Per identity, its attached claims counted the spec's way: active (from an issuer trusted for the topic), revoked,
// untrusted (active but from an issuer not trusted for the topic); badges name the topics of the trusted ones.
export interface ClaimState {
  identity: string;
  status: string;
  topic: bigint;
  /** The topic scheme's name, when the system has one. */
  topicName: string | null;
  trusted: boolean;
}

export interface ClaimSummary {
  activeClaimsCount: number;
  revokedClaimsCount: number;
  untrustedClaimsCount: number;
  verificationBadges: string[];
}

const empty = (): ClaimSummary => ({
  activeClaimsCount: 0,
  revokedClaimsCount: 0,
  untrustedClaimsCount: 0,
  verificationBadges: [],
});

export function summarizeClaims(claims: readonly ClaimState[]): Map<string, ClaimSummary> {
  const byIdentity = new Map<string, ClaimSummary>();
  for (const claim of claims) {
    const summary = byIdentity.get(claim.identity) ?? empty();
    byIdentity.set(claim.identity, summary);
    if (claim.status === "revoked") summary.revokedClaimsCount += 1;
    else if (!claim.trusted) summary.untrustedClaimsCount += 1;
    else {
      summary.activeClaimsCount += 1;
      const badge = claim.topicName ?? claim.topic.toString();
      if (!summary.verificationBadges.includes(badge)) summary.verificationBadges.push(badge);
    }
  }
  for (const summary of byIdentity.values()) summary.verificationBadges.sort();
  return byIdentity;
}

export function claimSummaryOf(summaries: Map<string, ClaimSummary>, identity: string): ClaimSummary {
  return summaries.get(identity) ?? empty();
}
