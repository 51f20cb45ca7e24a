import { describe, expect, it } from "vitest";
import { withoutAcceptingSenders } from "./accepting.ts";

describe("operations whose acceptance has not finished", () => {
  it("holds back every operation of a sender with one still accepting", () => {
    const rows = [
      { sender: "0xa", nonce: "0", accepting: false },
      { sender: "0xa", nonce: "1", accepting: true }, // its validation still runs
      { sender: "0xb", nonce: "0", accepting: false },
    ];
    expect(withoutAcceptingSenders(rows)).toEqual([{ sender: "0xb", nonce: "0", accepting: false }]);
    expect(withoutAcceptingSenders(rows.filter((row) => !row.accepting))).toHaveLength(2);
  });
});
