import { decodeAbiParameters, getAddress, parseAbiParameters } from "viem";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../host/errors/api-error.ts";
import { encodeClaimValues } from "./claim-data.ts";

function refusal(signature: string, values: (string | number | boolean)[]) {
  try {
    encodeClaimValues(signature, values);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("no refusal");
}

describe("claim data from values", () => {
  it("encodes values with the topic scheme's signature (big integers as decimal strings)", () => {
    const signature = "string country, uint256 expiry, bool accredited, address agent";
    const agent = "0x00000000000000000000000000000000000000aa";
    const data = encodeClaimValues(signature, ["BE", "1999999999999999999999", true, agent]);
    expect(decodeAbiParameters(parseAbiParameters(signature), data)).toEqual([
      "BE",
      1999999999999999999999n,
      true,
      getAddress(agent),
    ]);
    expect(decodeAbiParameters(parseAbiParameters("uint8 level"), encodeClaimValues("uint8 level", [3]))).toEqual([3]);
  });

  it("refuses values that do not fit, naming values", () => {
    for (const [signature, values] of [
      ["string country", ["BE", "FR"]],
      ["uint256 expiry", ["soon"]],
      ["bool ok", ["yes"]],
      ["uint8 level", [300]],
      ["not abi (", ["x"]],
    ] as const) {
      const error = refusal(signature, [...values]);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.code).toBe("BAD_REQUEST");
      expect((error.details.issues as { path: string }[])[0].path).toBe("values");
    }
  });
});
