// The control catalogue: the spec's ids, versions and categories; each params encoding decoded back with the
// module's ABI types (contracts/compliance/README.md); the refusals that mirror module reverts.
import { decodeAbiParameters, getAddress, keccak256, parseAbiParameters, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import {
  CONTROL_TYPE_IDS,
  CONTROL_TYPES,
  ComplianceConfigsSchema,
  controlType,
  incompatibleTypeIds,
} from "./control-types.ts";

const ALICE = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const KYC = BigInt(keccak256(toHex("KYC")));
const AML = BigInt(keccak256(toHex("AML")));

/** typeId → [ABI types of `bytes params`, a params JSON, the values the module decodes]. */
const SAMPLES: Record<string, [string, unknown, readonly unknown[]]> = {
  "address-block-list-v2": ["address[]", { blocked: [ALICE, BOB] }, [[getAddress(ALICE), BOB]]],
  "capital-raise-limit": [
    "uint256, uint256, uint64",
    { maxTotal: "1000000000000000000000000", periodLimit: "5000", periodLength: 86_400 },
    [10n ** 24n, 5000n, 86_400n],
  ],
  "capped-v2": [
    "uint256",
    { maxSupply: "115792089237316195423570985008687907853269984665640564039457584007913129639935" },
    [2n ** 256n - 1n],
  ],
  "collateral-v2": ["address, uint32", { oracle: ALICE, ratioBps: 15_000 }, [getAddress(ALICE), 15_000]],
  "country-allow-list-v2": ["uint16[]", { countries: [56, 276] }, [[56, 276]]],
  "country-block-list-v2": ["uint16[]", { countries: [408] }, [[408]]],
  "identity-allow-list-v2": ["address[]", { identities: [BOB] }, [[BOB]]],
  "identity-block-list-v2": ["address[]", { identities: [ALICE] }, [[getAddress(ALICE)]]],
  "identity-verification-v2": [
    "(uint8 nodeType, uint256 value)[]",
    {
      expression: [
        { nodeType: "TOPIC", topic: "KYC" },
        { nodeType: "TOPIC", topic: "AML" },
        { nodeType: "NOT" },
        { nodeType: "AND" },
      ],
    },
    [
      [
        { nodeType: 0, value: KYC },
        { nodeType: 0, value: AML },
        { nodeType: 3, value: 0n },
        { nodeType: 1, value: 0n },
      ],
    ],
  ],
  "investor-count-v2": [
    "uint256, uint16[], uint256[]",
    { maxInvestors: 2000, countries: [840, 276], countryLimits: [99, 500] },
    [2000n, [840, 276], [99n, 500n]],
  ],
  "time-lock-v2": ["uint64", { lockDuration: 31_536_000 }, [31_536_000n]],
  "transfer-approval-v2": ["address[], uint64", { approvers: [BOB], approvalValidity: 3600 }, [[BOB], 3600n]],
};
const TWINS = {
  "country-allow-list": "country-allow-list-v2",
  "investor-count": "investor-count-v2",
  "transfer-approval": "transfer-approval-v2",
};

const decode = (types: string, data: `0x${string}`) => decodeAbiParameters(parseAbiParameters(types), data);

function refusal(typeId: string, params: unknown): string[] {
  try {
    controlType(typeId)!.encodeParams(params);
  } catch (error) {
    expect(error).toBeInstanceOf(ZodError);
    return (error as ZodError).issues.map((i) => i.path.join("."));
  }
  throw new Error(`${typeId} accepted ${JSON.stringify(params)}`);
}

describe("the control catalogue", () => {
  it("lists the spec's control type ids with their module set and category", () => {
    expect(CONTROL_TYPES.map((t) => [t.id, t.moduleSetVersion, t.category])).toEqual([
      ["address-block-list-v2", 2, "Identity"],
      ["capital-raise-limit", 2, "Limits"],
      ["capped-v2", 2, "Limits"],
      ["collateral-v2", 2, "Collateral"],
      ["country-allow-list-v2", 2, "Geographic"],
      ["country-block-list-v2", 2, "Geographic"],
      ["identity-allow-list-v2", 2, "Identity"],
      ["identity-block-list-v2", 2, "Identity"],
      ["identity-verification-v2", 2, "Identity"],
      ["investor-count-v2", 2, "Limits"],
      ["time-lock-v2", 2, "Transfer"],
      ["transfer-approval-v2", 2, "Transfer"],
      ["country-allow-list", 1, "Geographic"],
      ["investor-count", 1, "Limits"],
      ["transfer-approval", 1, "Transfer"],
    ]);
    expect(controlType("nope")).toBeUndefined();
  });

  it.each(Object.entries(SAMPLES))(
    "%s encodes its params as the module decodes them",
    (typeId, [types, params, values]) => {
      const encoded = controlType(typeId)!.encodeParams(params);
      expect(decode(types, encoded)).toEqual(values);
    },
  );

  it("encodes each legacy id exactly like its v2 twin", () => {
    for (const [legacy, twin] of Object.entries(TWINS)) {
      expect(controlType(legacy)!.encodeParams(SAMPLES[twin][1])).toBe(
        controlType(twin)!.encodeParams(SAMPLES[twin][1]),
      );
    }
    expect(Object.keys(SAMPLES).length + Object.keys(TWINS).length).toBe(CONTROL_TYPE_IDS.length);
  });

  it("fills defaults: empty block lists, an empty expression (registration only), no expiry", () => {
    expect(decode("address[]", controlType("address-block-list-v2")!.encodeParams({}))).toEqual([[]]);
    expect(decode("uint16[]", controlType("country-block-list-v2")!.encodeParams({}))).toEqual([[]]);
    expect(
      decode("(uint8 nodeType, uint256 value)[]", controlType("identity-verification-v2")!.encodeParams({})),
    ).toEqual([[]]);
    expect(
      decode("uint256, uint256, uint64", controlType("capital-raise-limit")!.encodeParams({ maxTotal: "7" })),
    ).toEqual([7n, 0n, 0n]);
    expect(decode("address[], uint64", controlType("transfer-approval")!.encodeParams({ approvers: [ALICE] }))).toEqual(
      [[getAddress(ALICE)], 0n],
    );
  });

  it("refuses what the module would revert on, at the field's path", () => {
    expect(refusal("capped-v2", { maxSupply: "0" })).toEqual(["maxSupply"]);
    expect(refusal("capped-v2", { maxSupply: 5 })).toEqual(["maxSupply"]);
    expect(refusal("capped-v2", {})).toEqual(["maxSupply"]);
    expect(refusal("capital-raise-limit", {})).toEqual(["maxTotal"]);
    expect(refusal("capital-raise-limit", { periodLimit: "10" })).toEqual(["periodLength"]);
    expect(refusal("capital-raise-limit", { maxTotal: "10", periodLength: 60 })).toEqual(["periodLength"]);
    expect(refusal("collateral-v2", { oracle: "0x0000000000000000000000000000000000000000", ratioBps: 9_999 })).toEqual(
      ["oracle", "ratioBps"],
    );
    expect(refusal("country-allow-list-v2", { countries: [] })).toEqual(["countries"]);
    expect(refusal("country-allow-list-v2", { countries: [276, 0, 1000, 276] })).toEqual([
      "countries.1",
      "countries.2",
      "countries.3",
    ]);
    expect(refusal("country-block-list-v2", { countries: Array.from({ length: 257 }, (_, i) => i + 1) })).toEqual([
      "countries",
    ]);
    expect(refusal("identity-allow-list-v2", { identities: [ALICE, getAddress(ALICE)] })).toEqual(["identities.1"]);
    expect(refusal("identity-block-list-v2", { identities: ["0x12"] })).toEqual(["identities.0"]);
    expect(refusal("identity-verification-v2", { expression: [{ nodeType: "AND" }] })).toEqual(["expression.0"]);
    expect(
      refusal("identity-verification-v2", {
        expression: [
          { nodeType: "TOPIC", topic: "KYC" },
          { nodeType: "TOPIC", topic: "AML" },
        ],
      }),
    ).toEqual(["expression"]);
    expect(refusal("identity-verification-v2", { expression: [{ nodeType: "XOR" }] })).toEqual([
      "expression.0.nodeType",
    ]);
    expect(
      refusal("identity-verification-v2", {
        expression: Array.from({ length: 33 }, () => ({ nodeType: "TOPIC", topic: "KYC" })),
      }),
    ).toContain("expression");
    expect(refusal("investor-count-v2", { countries: [276], countryLimits: [] })).toEqual(["countryLimits"]);
    expect(refusal("investor-count", {})).toEqual(["maxInvestors"]);
    expect(refusal("investor-count-v2", { countries: [276], countryLimits: [0] })).toEqual(["countryLimits.0"]);
    expect(refusal("time-lock-v2", { lockDuration: 0 })).toEqual(["lockDuration"]);
    expect(refusal("transfer-approval-v2", { approvers: [] })).toEqual(["approvers"]);
    expect(
      refusal("transfer-approval-v2", {
        approvers: Array.from({ length: 33 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`),
      }),
    ).toEqual(["approvers"]);
    expect(refusal("address-block-list-v2", { blocked: [], extra: true })).toEqual([""]);
  });

  it("names the ids outside a module set, once each", () => {
    expect(incompatibleTypeIds(["capped-v2", "country-allow-list", "country-allow-list", "unknown"], 2)).toEqual([
      "country-allow-list",
      "unknown",
    ]);
    expect(incompatibleTypeIds(["country-allow-list", "transfer-approval"], 1)).toEqual([]);
    expect(incompatibleTypeIds(["capped-v2"], 1)).toEqual(["capped-v2"]);
  });

  it("documents a valid example for every control, and overlays without filling defaults", () => {
    for (const type of CONTROL_TYPES) expect(type.params.safeParse(type.example).success, type.id).toBe(true);
    expect(ComplianceConfigsSchema.parse({ "investor-count-v2": { countries: [276] } })).toEqual({
      "investor-count-v2": { countries: [276] },
    });
    expect(ComplianceConfigsSchema.safeParse({ "capped-v2": { maxSupply: 5 } }).success).toBe(false);
    expect(ComplianceConfigsSchema.safeParse({ "no-such-control": {} }).success).toBe(false);
  });
});
