import { decodeAbiParameters, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import {
  decodeFeatureParams,
  decodeFeatureValues,
  encodeFeatureParams,
  FeatureConfigsSchema,
  featureConfigSchema,
  TOKEN_FEATURES,
} from "./feature-params.ts";
import { checkFeatureRules } from "./feature-rules.ts";

const USDC = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const TREASURY = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const decimalsOf = (asset: string) => (asset === "token" ? 18 : 6);

describe("feature parameters", () => {
  it("encodes maturity-redemption as the contract reads it, and decodes it back", () => {
    const config = { maturityDate: "2030-01-01", denominationAsset: USDC, treasury: TREASURY, faceValue: "1000.5" };
    const params = encodeFeatureParams("maturity-redemption", config, decimalsOf);
    const [maturity, asset, treasury, face] = decodeAbiParameters(
      [{ type: "uint256" }, { type: "address" }, { type: "address" }, { type: "uint256" }],
      params,
    );
    expect(maturity).toBe(1893456000n);
    expect(asset).toBe(USDC);
    expect(treasury).toBe(TREASURY);
    expect(face).toBe(1_000_500_000n);
    expect(decodeFeatureParams("maturity-redemption", params, decimalsOf)).toEqual({
      maturityDate: "2030-01-01T00:00:00.000Z",
      denominationAsset: USDC,
      treasury: TREASURY,
      faceValue: "1000.5",
    });
  });

  it("round-trips every feature with parameters", () => {
    const samples: Record<string, Record<string, unknown>> = {
      "fixed-treasury-yield": { rate: 500, interval: "MONTHLY", treasury: TREASURY, denominationAsset: USDC },
      "aum-fee": { feeBps: 200, recipient: TREASURY },
      "transaction-fee": { mintFeeBps: 1, burnFeeBps: 2, transferFeeBps: 3, recipient: TREASURY },
      "external-transaction-fee": {
        feeToken: USDC,
        mintFeeAmount: "1",
        burnFeeAmount: "0.5",
        transferFeeAmount: "0",
        recipient: TREASURY,
      },
      conversion: {
        targetToken: USDC,
        conversionMinter: TREASURY,
        denominationAsset: USDC,
        discountBps: 2000,
        capPricePerShareWad: "5000000000000000000",
        conversionWindowStart: "2027-01-01T00:00:00.000Z",
        conversionWindowEnd: "2028-01-01T00:00:00.000Z",
        minConversionAmount: "10",
        partialAllowed: true,
      },
    };
    for (const [id, config] of Object.entries(samples)) {
      const featureId = id as (typeof TOKEN_FEATURES)[number];
      expect(featureConfigSchema(featureId).safeParse(config).success, id).toBe(true);
      const params: Hex = encodeFeatureParams(featureId, config, decimalsOf);
      expect(decodeFeatureParams(featureId, params, decimalsOf), id).toEqual(config);
    }
  });

  it("decodes the chain's values for the index as JSON: integers as decimal strings, amounts raw", () => {
    const config = { maturityDate: "2030-01-01", denominationAsset: USDC, treasury: TREASURY, faceValue: "1000.5" };
    const values = decodeFeatureValues(
      "maturity-redemption",
      encodeFeatureParams("maturity-redemption", config, decimalsOf),
    );
    expect(values).toEqual({
      maturityDate: "1893456000",
      denominationAsset: USDC,
      treasury: TREASURY,
      faceValue: "1000500000",
    });
    expect(JSON.parse(JSON.stringify(values))).toEqual(values);
    expect(decodeFeatureValues("permit", "0x")).toEqual({});
  });

  it("features without parameters encode to empty bytes and refuse any key", () => {
    expect(encodeFeatureParams("permit", {}, decimalsOf)).toBe("0x");
    expect(featureConfigSchema("permit").safeParse({ x: 1 }).success).toBe(false);
  });

  it("refuses basis points above 10000 and malformed amounts", () => {
    const schema = featureConfigSchema("aum-fee");
    expect(schema.safeParse({ feeBps: 10_001, recipient: TREASURY }).success).toBe(false);
    expect(
      featureConfigSchema("maturity-redemption").safeParse({
        maturityDate: "2030-01-01",
        denominationAsset: USDC,
        treasury: TREASURY,
        faceValue: "-1",
      }).success,
    ).toBe(false);
  });
});

describe("feature rules", () => {
  it("names the missing dependency and the incompatible pair", () => {
    expect(checkFeatureRules(["fixed-treasury-yield"])).toEqual({
      rule: "requires",
      featureId: "fixed-treasury-yield",
      requiredFeatureId: "historical-balances",
    });
    expect(checkFeatureRules(["transaction-fee", "transaction-fee-accounting"])).toEqual({
      rule: "excludes",
      featureId: "transaction-fee",
      incompatibleFeatureId: "transaction-fee-accounting",
    });
    expect(checkFeatureRules(["historical-balances", "fixed-treasury-yield", "permit"])).toBeUndefined();
  });
});

describe("featureConfigs in a request", () => {
  it("takes any subset of a feature's parameters, typed, and documents a valid example per feature", () => {
    expect(FeatureConfigsSchema.safeParse({ "maturity-redemption": { maturityDate: "2030-12-31" } }).success).toBe(
      true,
    );
    expect(FeatureConfigsSchema.safeParse({ "fixed-treasury-yield": { rate: "5%" } }).success).toBe(false);
    expect(FeatureConfigsSchema.safeParse({ "no-such-feature": {} }).success).toBe(false);
    for (const id of TOKEN_FEATURES) {
      const documented = FeatureConfigsSchema.shape[id].unwrap().meta() as { example: unknown };
      expect(featureConfigSchema(id).safeParse(documented.example).success, id).toBe(true);
    }
  });
});
