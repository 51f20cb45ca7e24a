import { describe, expect, it } from "vitest";
import { sendersHeldBack } from "./sender-storage-rule.ts";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
const C = "0x00000000000000000000000000000000000000cc";
const TOKEN = "0x00000000000000000000000000000000000000dd";

/** A pending operation of `sender` accepted `second` seconds into the minute. */
const op = (sender: string, storageAddresses: string[] | null, second = 0) => ({
  sender,
  storageAddresses,
  createdAt: new Date(Date.UTC(2026, 10, 30, 12, 0, second)),
});

describe("STO-041 at bundling", () => {
  it("holds back a sender whose operation used storage of another live operation's sender", () => {
    const rows = [
      op(A, [TOKEN, B]), // B is live: A waits
      op(A, null),
      op(C, [TOKEN]), // no sender's storage
      op(B, null),
    ];
    expect(sendersHeldBack(rows, new Set([A, B, C]))).toEqual(new Set([A]));
  });

  it("does not count a sender's own storage, nor a contract that is no live sender", () => {
    expect(sendersHeldBack([op(A, [A, TOKEN])], new Set([A]))).toEqual(new Set());
    expect(sendersHeldBack([op(A, [B])], new Set([A, C]))).toEqual(new Set());
  });

  it("lets the first accepted of senders waiting on one another go, the others after it", () => {
    // Accepted at once, each before it saw the other live: left alone, neither would ever be bundled.
    expect(sendersHeldBack([op(B, [A], 2), op(A, [B], 1)], new Set([A, B]))).toEqual(new Set([B]));
    // A cycle of three: A goes; C waits for A, B for C.
    const three = [op(A, [B], 1), op(B, [C], 2), op(C, [A], 3)];
    expect(sendersHeldBack(three, new Set([A, B, C]))).toEqual(new Set([B, C]));
    // While B has an operation in a bundle not yet mined (it could change what A's validation read), A waits: B goes.
    expect(sendersHeldBack([op(B, [A], 2), op(A, [B], 1)], new Set([A, B]), new Set([B]))).toEqual(new Set([A]));
    // Not a cycle: B waits for C, which waits for nobody; A, first, still waits for B.
    const chain = [op(A, [B], 1), op(B, [C], 2), op(C, null, 3)];
    expect(sendersHeldBack(chain, new Set([A, B, C]))).toEqual(new Set([A, B]));
  });
});
