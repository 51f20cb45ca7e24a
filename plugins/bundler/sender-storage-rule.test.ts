import { describe, expect, it } from "vitest";
import { sendersHeldBack } from "./sender-storage-rule.ts";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
const C = "0x00000000000000000000000000000000000000cc";
const TOKEN = "0x00000000000000000000000000000000000000dd";

describe("STO-041 at bundling", () => {
  it("holds back a sender whose operation used storage of another live operation's sender", () => {
    const rows = [
      { sender: A, storageAddresses: [TOKEN, B] }, // B is live: A waits
      { sender: A, storageAddresses: null },
      { sender: C, storageAddresses: [TOKEN] }, // no sender's storage
      { sender: B, storageAddresses: null },
    ];
    expect(sendersHeldBack(rows, new Set([A, B, C]))).toEqual(new Set([A]));
  });

  it("does not count a sender's own storage, nor a contract that is no live sender", () => {
    expect(sendersHeldBack([{ sender: A, storageAddresses: [A, TOKEN] }], new Set([A]))).toEqual(new Set());
    expect(sendersHeldBack([{ sender: A, storageAddresses: [B] }], new Set([A, C]))).toEqual(new Set());
  });
});
