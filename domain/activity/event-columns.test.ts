import { describe, expect, it } from "vitest";
import { decodeInvolved, decodeValues, encodeInvolved, encodeValues } from "./event-columns.ts";

describe("activity event columns", () => {
  it("keeps involved addresses lowercase and in order, none as the empty text", () => {
    const addresses = ["0xAbC0000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002"];
    expect(encodeInvolved(addresses)).toBe(
      "0xabc0000000000000000000000000000000000001 0x0000000000000000000000000000000000000002",
    );
    expect(decodeInvolved(encodeInvolved(addresses))).toEqual(addresses.map((a) => a.toLowerCase()));
    expect(encodeInvolved([])).toBe("");
    expect(decodeInvolved("")).toEqual([]);
  });

  it("keeps parameters by name in order, each as a string (bigints in decimal)", () => {
    const encoded = encodeValues({ to: "0xAbC0000000000000000000000000000000000001", amount: 10n ** 30n, ok: true });
    expect(decodeValues(encoded)).toEqual([
      { name: "to", value: "0xAbC0000000000000000000000000000000000001" },
      { name: "amount", value: "1000000000000000000000000000000" },
      { name: "ok", value: "true" },
    ]);
    expect(decodeValues(encodeValues({}))).toEqual([]);
  });
});
