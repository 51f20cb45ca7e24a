// Claim data from JSON values, ABI-encoded with the topic scheme's signature (e.g. "string country, uint256 expiry").
import { type AbiParameter, encodeAbiParameters, type Hex, parseAbiParameters } from "viem";
import { badRequest } from "../../host/errors/api-error.ts";

type ClaimValue = string | number | boolean;

const INTEGER = /^-?\d+$/;

/** JSON carries big integers as decimal strings; the encoder wants bigint for (u)int types. */
function coerce(parameter: AbiParameter, value: ClaimValue): unknown {
  if (/^u?int\d*$/.test(parameter.type)) {
    if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value === "string" && INTEGER.test(value)) return BigInt(value);
  }
  return value;
}

/** The encoded data, or BAD_REQUEST naming `values` when the values do not fit the signature. */
export function encodeClaimValues(signature: string, values: readonly ClaimValue[]): Hex {
  let parameters: readonly AbiParameter[];
  try {
    parameters = parseAbiParameters(signature);
  } catch {
    throw badRequest(`The topic scheme's signature "${signature}" is not ABI parameters; send data instead`, [
      { path: "values", message: "the topic's signature cannot encode values" },
    ]);
  }
  if (parameters.length !== values.length) {
    throw badRequest(`The topic takes ${parameters.length} value(s) (${signature}), got ${values.length}`, [
      { path: "values", message: `expected ${parameters.length} value(s): ${signature}` },
    ]);
  }
  try {
    return encodeAbiParameters(
      parameters,
      parameters.map((parameter, i) => coerce(parameter, values[i])),
    );
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0];
    throw badRequest(`The values do not fit the topic's signature (${signature}): ${reason}`, [
      { path: "values", message: reason },
    ]);
  }
}
