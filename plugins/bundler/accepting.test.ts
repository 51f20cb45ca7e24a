import { describe, expect, it } from "vitest";
import { withoutAccepting } from "./accepting.ts";

const KEY_1 = 1n << 64n;

describe("operations whose acceptance has not finished", () => {
  it("holds back one still accepting and those after it under its nonce key, not the sender's other keys", () => {
    const row = (sender: string, nonce: bigint, accepting = false) => ({ sender, nonce: nonce.toString(), accepting });
    const rows = [
      row("0xa", 0n),
      row("0xa", 1n, true), // its validation still runs
      row("0xa", 2n), // behind it under key 0
      row("0xa", KEY_1), // key 1: a sequence of its own
      row("0xb", 0n),
    ];
    expect(withoutAccepting(rows)).toEqual([row("0xa", 0n), row("0xa", KEY_1), row("0xb", 0n)]);
    expect(withoutAccepting(rows.filter((r) => !r.accepting))).toHaveLength(4);
  });
});
