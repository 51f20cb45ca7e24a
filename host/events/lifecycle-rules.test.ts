import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { WebhookEventType } from "../plugin.ts";
import { matchPending, mayFollow, replacedBlocks, statesOf } from "./lifecycle-rules.ts";

const read = async () => [];
const type = (event: Partial<WebhookEventType>): WebhookEventType => ({
  description: "x",
  payload: z.object({}),
  ...event,
});

describe("the lifecycle's order", () => {
  it("lets each state follow only the one before it", () => {
    expect(mayFollow(null, "pending")).toBe(true);
    expect(mayFollow("pending", "provisional")).toBe(true);
    expect(mayFollow("provisional", "final")).toBe(true);
    expect(mayFollow("final", "recalled")).toBe(true);
    expect(mayFollow("pending", "retracted")).toBe(true);
    expect(mayFollow("provisional", "retracted")).toBe(true);
    // Never backwards, never skipping the final a recall undoes, never retracting what is final.
    expect(mayFollow("provisional", "pending")).toBe(false);
    expect(mayFollow("final", "retracted")).toBe(false);
    expect(mayFollow("provisional", "recalled")).toBe(false);
    expect(mayFollow(null, "recalled")).toBe(false);
    expect(mayFollow(null, "retracted")).toBe(false);
    // A fact that comes back after a reorg starts again.
    expect(mayFollow("retracted", "provisional")).toBe(true);
    expect(mayFollow("recalled", "provisional")).toBe(true);
  });

  it("publishes the states each type's deliveries carry, in order", () => {
    const predicting = type({
      lifecycle: "provisional",
      fromIndex: { read, pending: { kinds: ["token.mint"], predict: () => [] } },
    });
    expect(statesOf(predicting)).toEqual(["pending", "provisional", "final", "retracted", "recalled"]);
    expect(statesOf(type({ lifecycle: "provisional", fromIndex: { read } }))).toEqual([
      "provisional",
      "final",
      "retracted",
      "recalled",
    ]);
    expect(statesOf(type({}))).toEqual(["final", "recalled"]);
  });
});

describe("which pending event an indexed observation follows", () => {
  const candidates = [
    { id: "evt_a", requestId: "r1", payload: { quantity: "5", transactionHash: "0x01" } },
    { id: "evt_b", requestId: "r1", payload: { quantity: "7", transactionHash: "0x01" } },
    { id: "evt_c", requestId: "r2", payload: { quantity: "7", transactionHash: "0x02" } },
  ];

  it("the same fact of the same request, whatever hash a fee bump mined it under", () => {
    const taken = new Set<string>();
    expect(
      matchPending(candidates, { requestId: "r1", payload: { quantity: "7", transactionHash: "0x99" } }, taken),
    ).toBe("evt_b");
    // Each pending event is followed once: the next observation of r1 takes the other.
    expect(
      matchPending(candidates, { requestId: "r1", payload: { quantity: "7", transactionHash: "0x99" } }, taken),
    ).toBe("evt_a");
    expect(matchPending(candidates, { requestId: "r1", payload: {} }, taken)).toBeNull();
  });

  it("none for a fact no platform write caused", () => {
    expect(matchPending(candidates, { requestId: null, payload: { quantity: "7" } }, new Set())).toBeNull();
    expect(matchPending(candidates, { requestId: "r9", payload: { quantity: "7" } }, new Set())).toBeNull();
  });
});

describe("the told-final blocks a deep reorg replaced", () => {
  const told = [
    { blockNumber: 12n, blockHash: "0xCC" },
    { blockNumber: 11n, blockHash: "0xbb" },
    { blockNumber: 10n, blockHash: "0xaa" },
  ];

  it("those whose hash the chain no longer has, or whose height it has not mined again", () => {
    const chain = new Map<bigint, string | null>([
      [12n, null],
      [11n, "0xb2"],
      [10n, "0xAA"],
    ]);
    expect(replacedBlocks(told, chain)).toEqual([12n, 11n]);
  });

  it("none when the chain agrees, and none for a block not asked about", () => {
    expect(replacedBlocks(told, new Map([[12n, "0xcc"]]))).toEqual([]);
  });
});
