import { keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import {
  finalityDepth,
  finalityOf,
  IDLE_WATCH_MAX_MS,
  REORGED,
  reorgedRequest,
  WATCH_INTERVAL_MS,
  watchDelayMs,
} from "./finality.ts";

describe("finalityDepth", () => {
  it("is the served chain's setting, the one the index lifecycle settles with", () => {
    const config = loadConfig({ WEBHOOK_REORG_DEPTH: "12,31338:3", EMBEDDED_CHAINS: "2" });
    const chains = { ids: [31337, 31338] };
    expect(finalityDepth(config, chains, 31337)).toBe(12);
    expect(finalityDepth(config, chains, 31338)).toBe(3);
  });

  it("falls back to WEBHOOK_REORG_DEPTH for the chain when its setting is not known by id", () => {
    const config = loadConfig({ RPC_URL: "http://127.0.0.1:8545", WEBHOOK_REORG_DEPTH: "12,5:2" });
    expect(finalityDepth(config, { ids: [1, 5] }, 5)).toBe(2);
  });
});

describe("finalityOf", () => {
  const still = { in: "recorded-block" } as const;
  const completed = { blockNumber: 100n, status: "COMPLETED" } as const;
  const reverted = { blockNumber: 100n, status: "FAILED" } as const;

  it("watches a write still in its block until the head is the finality depth past it, then it is final", () => {
    expect(finalityOf(completed, still, 100n, 3)).toEqual({ action: "watch" });
    expect(finalityOf(completed, still, 102n, 3)).toEqual({ action: "watch" });
    expect(finalityOf(completed, still, 103n, 3)).toEqual({ action: "final" });
    expect(finalityOf(completed, still, 150n, 3)).toEqual({ action: "final" });
    expect(finalityOf(completed, still, 100n, 0)).toEqual({ action: "final" }); // a chain that never reorgs
    expect(finalityOf(reverted, still, 102n, 3)).toEqual({ action: "watch" });
    expect(finalityOf(reverted, still, 103n, 3)).toEqual({ action: "final" });
  });

  it("sends a write no block holds any more back to be confirmed, however deep its block was, reverted or not", () => {
    expect(finalityOf(completed, { in: "none" }, 101n, 3)).toEqual({ action: "reorged" });
    expect(finalityOf(completed, { in: "none" }, 200n, 3)).toEqual({ action: "reorged" });
    // Its nonce is free again: left alone, the signer's later writes would wait behind it for good.
    expect(finalityOf(reverted, { in: "none" }, 101n, 3)).toEqual({ action: "reorged" });
  });

  it("follows a write a reorg re-included elsewhere with the same outcome, and confirms again one with another", () => {
    const elsewhere = { in: "other-block", blockNumber: 102n, transactionHash: "0xaa" } as const;
    const moved = { action: "moved", blockNumber: 102n, transactionHash: "0xaa" };
    expect(finalityOf(completed, { ...elsewhere, success: true }, 103n, 3)).toEqual(moved);
    expect(finalityOf(completed, { ...elsewhere, success: false }, 103n, 3)).toEqual({ action: "reorged" });
    expect(finalityOf(reverted, { ...elsewhere, success: false }, 103n, 3)).toEqual(moved);
    expect(finalityOf(reverted, { ...elsewhere, success: true }, 103n, 3)).toEqual({ action: "reorged" });
  });
});

describe("reorgedRequest", () => {
  const raw = "0x02f86c827a6980843b9aca00847735940082520894" as const;
  const current = keccak256(raw);

  it("goes back to CONFIRMING / REORGED without its block or a revert's error, counting the reorg, following its current bytes", () => {
    expect(reorgedRequest({ rawTransaction: raw, transactionHash: current, replacedHashes: [], reorgs: 0 })).toEqual({
      status: "CONFIRMING",
      subStatus: REORGED,
      transactionHash: current,
      replacedHashes: [],
      blockNumber: null,
      errorMessage: null,
      contractError: null,
      reorgs: 1,
    });
  });

  it("keeps the hash that was mined among the replaced ones when a fee bump's earlier version was the mined one", () => {
    const mined = `0x${"11".repeat(32)}`;
    const row = { rawTransaction: raw, transactionHash: mined, replacedHashes: [mined], reorgs: 2 };
    expect(reorgedRequest(row)).toMatchObject({ transactionHash: current, replacedHashes: [mined], reorgs: 3 });
    expect(reorgedRequest({ ...row, replacedHashes: [] })).toMatchObject({ replacedHashes: [mined] });
  });
});

describe("watchDelayMs", () => {
  it("checks every second while the head moves, and backs off to 8 s while it stays the same block", () => {
    expect(watchDelayMs(0)).toBe(WATCH_INTERVAL_MS);
    expect([1, 2, 3, 4, 10].map(watchDelayMs)).toEqual([2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(IDLE_WATCH_MAX_MS).toBe(8_000);
  });
});
