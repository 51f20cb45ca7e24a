import { describe, expect, it } from "vitest";
import { claimSummaryOf, summarizeClaims } from "./claim-summary.ts";

describe("claim counts of an identity", () => {
  it("counts active (trusted), revoked and untrusted claims; badges name the trusted topics", () => {
    const summaries = summarizeClaims([
      { identity: "0xa", status: "active", topic: 1n, topicName: "kyc", trusted: true },
      { identity: "0xa", status: "active", topic: 2n, topicName: null, trusted: true },
      { identity: "0xa", status: "revoked", topic: 3n, topicName: "aml", trusted: true },
      { identity: "0xa", status: "active", topic: 4n, topicName: "pep", trusted: false },
      { identity: "0xb", status: "revoked", topic: 1n, topicName: "kyc", trusted: false },
    ]);
    expect(claimSummaryOf(summaries, "0xa")).toEqual({
      activeClaimsCount: 2,
      revokedClaimsCount: 1,
      untrustedClaimsCount: 1,
      verificationBadges: ["2", "kyc"],
    });
    expect(claimSummaryOf(summaries, "0xb")).toMatchObject({ revokedClaimsCount: 1, verificationBadges: [] });
    expect(claimSummaryOf(summaries, "0xc")).toEqual({
      activeClaimsCount: 0,
      revokedClaimsCount: 0,
      untrustedClaimsCount: 0,
      verificationBadges: [],
    });
  });
});
