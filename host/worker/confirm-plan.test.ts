import { describe, expect, it } from "vitest";
import {
  minedOf,
  NONCE_TAKEN_GRACE_MS,
  needsPoolLookup,
  nextPollDelay,
  nonceTakenAction,
  patienceMs,
  unminedAction,
} from "./confirm-plan.ts";

const config = { STUCK_TRANSACTION_SECONDS: 10, RECEIPT_TIMEOUT_SECONDS: 30, FEE_BUMP_LIMIT: 2 };
const fresh = { feeBumps: 0, subStatus: "BROADCAST" };

describe("patienceMs", () => {
  it("is the shorter of the stuck and receipt-timeout waits", () => {
    expect(patienceMs(config)).toBe(10_000);
    expect(patienceMs({ ...config, RECEIPT_TIMEOUT_SECONDS: 4 })).toBe(4_000);
  });
});

describe("minedOf", () => {
  it("keeps the writes whose nonce the mined count has passed (never one without a nonce)", () => {
    const rows = [{ nonce: 3 }, { nonce: 4 }, { nonce: 5 }, { nonce: null }];
    expect(minedOf(rows, 5)).toEqual([{ nonce: 3 }, { nonce: 4 }]);
    expect(minedOf(rows, 0)).toEqual([]);
  });
});

describe("nonceTakenAction", () => {
  it("first marks the write, then signs it anew once the mark has held for the grace", () => {
    expect(nonceTakenAction({ subStatus: "BROADCAST" }, 60_000)).toBe("mark");
    expect(nonceTakenAction({ subStatus: "NONCE_TAKEN" }, NONCE_TAKEN_GRACE_MS - 1)).toBe("wait");
    expect(nonceTakenAction({ subStatus: "NONCE_TAKEN" }, NONCE_TAKEN_GRACE_MS)).toBe("resign");
  });
});

describe("needsPoolLookup", () => {
  it("asks the node only once the write has waited past the stuck or the receipt-timeout wait", () => {
    expect(needsPoolLookup(10_000, config)).toBe(false);
    expect(needsPoolLookup(10_001, config)).toBe(true);
    expect(needsPoolLookup(5_000, { ...config, RECEIPT_TIMEOUT_SECONDS: 4 })).toBe(true);
  });
});

describe("unminedAction", () => {
  it("waits while the write is younger than both waits", () => {
    expect(unminedAction(fresh, 9_000, undefined, config)).toBe("wait");
  });

  it("bumps a write the node still holds once it is stuck, while bumps remain", () => {
    expect(unminedAction(fresh, 11_000, "pending", config)).toBe("bump");
    expect(unminedAction({ ...fresh, feeBumps: 1 }, 31_000, "pending", config)).toBe("bump");
  });

  it("times out a held write once its bumps ran out and the receipt wait passed, and waits before", () => {
    expect(unminedAction({ ...fresh, feeBumps: 2 }, 11_000, "pending", config)).toBe("wait");
    expect(unminedAction({ ...fresh, feeBumps: 2 }, 31_000, "pending", config)).toBe("timeout");
  });

  it("with the receipt wait shorter than the stuck one, a held write with bumps left waits for its bump", () => {
    const short = { ...config, STUCK_TRANSACTION_SECONDS: 60, RECEIPT_TIMEOUT_SECONDS: 5 };
    expect(unminedAction(fresh, 6_000, "pending", short)).toBe("wait");
    expect(unminedAction(fresh, 61_000, "pending", short)).toBe("bump");
  });

  it("sends the signer's next write to be mined again at once when the node lost it, not after the stuck wait", () => {
    expect(unminedAction(fresh, 3_000, "absent", config, true)).toBe("rebroadcast");
    expect(unminedAction({ ...fresh, subStatus: "REBROADCAST" }, 3_000, "absent", config, true)).toBe("rebroadcast");
    expect(unminedAction(fresh, 3_000, "absent", config, false)).toBe("wait");
    expect(unminedAction(fresh, 3_000, "pending", config, true)).toBe("wait");
  });

  it("broadcasts a write the node no longer holds again once, then lets it time out", () => {
    expect(unminedAction(fresh, 11_000, "absent", config)).toBe("rebroadcast");
    expect(unminedAction({ ...fresh, subStatus: "REBROADCAST" }, 11_000, "absent", config)).toBe("wait");
    expect(unminedAction(fresh, 31_000, "absent", config)).toBe("timeout");
  });

  it("neither bumps nor rebroadcasts a write the node reports mined (its receipt is due)", () => {
    expect(unminedAction(fresh, 11_000, "mined", config)).toBe("wait");
    expect(unminedAction(fresh, 31_000, "mined", config)).toBe("timeout");
  });
});

describe("nextPollDelay", () => {
  it("polls soon after progress, else doubles up to 250 ms", () => {
    expect(nextPollDelay(200, true)).toBe(25);
    expect(nextPollDelay(25, false)).toBe(50);
    expect(nextPollDelay(200, false)).toBe(250);
    expect(nextPollDelay(250, false)).toBe(250);
  });
});
