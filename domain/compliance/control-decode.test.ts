// decodeControlParams is the inverse of every control's encodeParams: params JSON → bytes → the same JSON (with the
// schema's defaults, checksummed addresses, amounts as decimal strings; identity-verification topics as their ids).
import { encodeAbiParameters, getAddress, keccak256, parseAbiParameters, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { decodeControlParams, topicIdHex, tryDecodeControlParams } from "./control-decode.ts";
import { CONTROL_TYPE_IDS, CONTROL_TYPES, controlType } from "./control-types.ts";

const ALICE = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const CAROL = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const MAX_UINT256 = (2n ** 256n - 1n).toString();

/** typeId → params JSON as an organisation writes them (some relying on defaults) → what decoding gives back. */
const ROUND_TRIPS: Record<string, [unknown, Record<string, unknown>][]> = {
  "address-block-list-v2": [
    [{ blocked: [ALICE, BOB] }, { blocked: [getAddress(ALICE), BOB] }],
    [{}, { blocked: [] }],
  ],
  "capital-raise-limit": [
    [
      { maxTotal: "1000000000000000000000000", periodLimit: "5000", periodLength: 86_400 },
      { maxTotal: "1000000000000000000000000", periodLimit: "5000", periodLength: 86_400 },
    ],
    [{ maxTotal: MAX_UINT256 }, { maxTotal: MAX_UINT256, periodLimit: "0", periodLength: 0 }],
  ],
  "capped-v2": [
    [{ maxSupply: "1000000" }, { maxSupply: "1000000" }],
    [{ maxSupply: MAX_UINT256 }, { maxSupply: MAX_UINT256 }],
  ],
  "collateral-v2": [
    [
      { oracle: CAROL, ratioBps: 15_000 },
      { oracle: getAddress(CAROL), ratioBps: 15_000 },
    ],
  ],
  "country-allow-list-v2": [[{ countries: [56, 276, 999] }, { countries: [56, 276, 999] }]],
  "country-block-list-v2": [
    [{ countries: [408, 1] }, { countries: [408, 1] }],
    [{}, { countries: [] }],
  ],
  "identity-allow-list-v2": [[{ identities: [BOB, ALICE] }, { identities: [BOB, getAddress(ALICE)] }]],
  "identity-block-list-v2": [
    [{ identities: [CAROL] }, { identities: [getAddress(CAROL)] }],
    [{}, { identities: [] }],
  ],
  "identity-verification-v2": [
    [
      {
        expression: [
          { nodeType: "TOPIC", topic: "KYC" },
          { nodeType: "TOPIC", topic: "AML" },
          { nodeType: "NOT" },
          { nodeType: "AND" },
          { nodeType: "TOPIC", topic: "accredited investor" },
          { nodeType: "OR" },
        ],
      },
      {
        expression: [
          { nodeType: "TOPIC", topicId: keccak256(toHex("KYC")) },
          { nodeType: "TOPIC", topicId: keccak256(toHex("AML")) },
          { nodeType: "NOT" },
          { nodeType: "AND" },
          { nodeType: "TOPIC", topicId: keccak256(toHex("accredited investor")) },
          { nodeType: "OR" },
        ],
      },
    ],
    [{}, { expression: [] }],
  ],
  "investor-count-v2": [
    [
      { maxInvestors: 2000, countries: [840, 276], countryLimits: [99, 500] },
      { maxInvestors: 2000, countries: [840, 276], countryLimits: [99, 500] },
    ],
    [{ maxInvestors: 149 }, { maxInvestors: 149, countries: [], countryLimits: [] }],
  ],
  "time-lock-v2": [[{ lockDuration: 31_536_000 }, { lockDuration: 31_536_000 }]],
  "transfer-approval-v2": [
    [
      { approvers: [BOB, CAROL], approvalValidity: 3600 },
      { approvers: [BOB, getAddress(CAROL)], approvalValidity: 3600 },
    ],
    [{ approvers: [ALICE] }, { approvers: [getAddress(ALICE)], approvalValidity: 0 }],
  ],
};
const TWINS: Record<string, string> = {
  "country-allow-list": "country-allow-list-v2",
  "investor-count": "investor-count-v2",
  "transfer-approval": "transfer-approval-v2",
};
const samplesOf = (typeId: string) => ROUND_TRIPS[TWINS[typeId] ?? typeId];

describe("decodeControlParams", () => {
  it("has round-trip samples for every control type of the catalogue", () => {
    expect(CONTROL_TYPE_IDS.filter((id) => !samplesOf(id))).toEqual([]);
  });

  describe.each(CONTROL_TYPES.map((t) => t.id))("%s", (typeId) => {
    it("decodes what encodeParams wrote back to the params JSON", () => {
      const control = controlType(typeId)!;
      for (const [written, expected] of samplesOf(typeId)) {
        const encoded = control.encodeParams(written);
        const decoded = decodeControlParams(typeId, encoded);
        expect(decoded).toEqual(expected);
        if (typeId !== "identity-verification-v2") {
          // The decoding is itself complete, valid params that encode to the same bytes.
          expect(control.params.parse(decoded)).toEqual(decoded);
          expect(control.encodeParams(decoded)).toBe(encoded);
        }
      }
    });
  });

  it("writes topic ids as keccak256 of the topic name, 32-byte hex (topicIdHex)", () => {
    const encoded = controlType("identity-verification-v2")!.encodeParams({
      expression: [{ nodeType: "TOPIC", topic: "KYC" }],
    });
    const decoded = decodeControlParams("identity-verification-v2", encoded);
    expect(decoded).toEqual({ expression: [{ nodeType: "TOPIC", topicId: topicIdHex("KYC") }] });
    expect(topicIdHex("KYC")).toMatch(/^0x[0-9a-f]{64}$/);
    // A topic id with leading zero bytes keeps its 32-byte width.
    const small = encodeAbiParameters(parseAbiParameters("(uint8 nodeType, uint256 value)[]"), [
      [{ nodeType: 0, value: 7n }],
    ]);
    expect(decodeControlParams("identity-verification-v2", small)).toEqual({
      expression: [{ nodeType: "TOPIC", topicId: `0x${"0".repeat(63)}7` }],
    });
  });

  it("gives counts beyond Number.MAX_SAFE_INTEGER as decimal strings", () => {
    const encoded = encodeAbiParameters(parseAbiParameters("uint256, uint16[], uint256[]"), [2n ** 64n, [56], [1n]]);
    expect(decodeControlParams("investor-count-v2", encoded)).toEqual({
      maxInvestors: "18446744073709551616",
      countries: [56],
      countryLimits: [1],
    });
  });

  it("refuses unknown type ids, undecodable params and unknown expression nodes", () => {
    expect(() => decodeControlParams("kyc-v9", "0x")).toThrow(/Unknown compliance control type kyc-v9/);
    expect(() => decodeControlParams("capped-v2", "0x")).toThrow(/do not decode as capped-v2/);
    const badNode = encodeAbiParameters(parseAbiParameters("(uint8 nodeType, uint256 value)[]"), [
      [{ nodeType: 4, value: 0n }],
    ]);
    expect(() => decodeControlParams("identity-verification-v2", badNode)).toThrow(/unknown node type 4/);
    expect(tryDecodeControlParams("capped-v2", "0x")).toBeUndefined();
    expect(tryDecodeControlParams("kyc-v9", "0x")).toBeUndefined();
    expect(tryDecodeControlParams("capped-v2", controlType("capped-v2")!.encodeParams({ maxSupply: "5" }))).toEqual({
      maxSupply: "5",
    });
  });
});
