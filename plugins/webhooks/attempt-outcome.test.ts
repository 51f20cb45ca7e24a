import { describe, expect, it } from "vitest";
import { decideAttempt } from "./attempt-outcome.ts";
import { MAX_ATTEMPTS } from "./backoff.ts";

const now = Date.parse("2026-11-29T12:00:00Z");
const ok = { responseStatus: 204, error: null, retryAfter: null };
const failed = (responseStatus: number | null, retryAfter: string | null = null) => ({
  responseStatus,
  error: responseStatus ? `HTTP ${responseStatus}` : "connection refused",
  retryAfter,
});
// No jitter: backoff is exactly base·2^(attempt-1).
const options = { receiptRequired: false, retryBaseSeconds: 60, now, random: () => 0.5 };

describe("decideAttempt", () => {
  it("settles a 2xx, or awaits a receipt on the backoff schedule when the type wants one", () => {
    expect(decideAttempt(ok, { ...options, tried: 1 })).toEqual({ kind: "succeeded" });
    expect(decideAttempt(ok, { ...options, tried: 2, receiptRequired: true })).toEqual({
      kind: "awaiting-receipt",
      nextAttemptAt: new Date(now + 120_000),
    });
    // Past the schedule it waits for the receipt without delivering again.
    expect(decideAttempt(ok, { ...options, tried: MAX_ATTEMPTS, receiptRequired: true })).toEqual({
      kind: "awaiting-receipt",
      nextAttemptAt: null,
    });
  });

  it("disables on 410 Gone, even on the last attempt", () => {
    expect(decideAttempt(failed(410), { ...options, tried: 1 })).toEqual({ kind: "gone" });
    expect(decideAttempt(failed(410), { ...options, tried: MAX_ATTEMPTS })).toEqual({ kind: "gone" });
  });

  it("retries with backoff, honouring Retry-After on 429 and 503 only, until the attempts run out", () => {
    expect(decideAttempt(failed(500, "5"), { ...options, tried: 3 })).toEqual({
      kind: "retrying",
      nextAttemptAt: new Date(now + 240_000),
    });
    expect(decideAttempt(failed(429, "5"), { ...options, tried: 3 })).toEqual({
      kind: "retrying",
      nextAttemptAt: new Date(now + 5_000),
    });
    expect(decideAttempt(failed(503, "soon"), { ...options, tried: 1 })).toEqual({
      kind: "retrying",
      nextAttemptAt: new Date(now + 60_000),
    });
    expect(decideAttempt(failed(null), { ...options, tried: MAX_ATTEMPTS })).toEqual({ kind: "failed" });
  });
});
