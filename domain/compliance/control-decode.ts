// The inverse of each compliance control's `encodeParams` (control-types.ts): a module's on-chain `bytes params`
// back into the `params` JSON of its control, for read models (a token's compliance modules) and tests.
//
// The shape is the one the control's params schema takes, with its defaults filled in:
// - addresses are EIP-55 checksummed;
// - raw-unit amounts (capital-raise-limit maxTotal and periodLimit, capped-v2 maxSupply) are decimal strings;
// - seconds, counts, countries and basis points are JSON integers (a count above Number.MAX_SAFE_INTEGER, which
//   the schemas refuse but a module could hold if written outside the API, comes back as a decimal string);
// - identity-verification-v2 is the one exception: the chain keeps only a claim topic's id
//   (uint256(keccak256(name))), not its name, so a TOPIC node comes back as `{nodeType: "TOPIC", topicId}` with the
//   id as 0x-prefixed 32-byte hex (the same text as keccak256(name); see topicIdHex), never as `{topic}`.
//   Operators are `{nodeType: "AND" | "OR" | "NOT"}`. The expression stays in postfix order.
import { decodeAbiParameters, getAddress, type Hex, keccak256, parseAbiParameters, toBytes, toHex } from "viem";
import { controlType } from "./control-types.ts";

/** A decoded identity-verification-v2 expression node. */
export type DecodedExpressionNode = { nodeType: "TOPIC"; topicId: Hex } | { nodeType: "AND" | "OR" | "NOT" };

/** The id of a claim topic as decodeControlParams writes it: keccak256 of its name, 32-byte hex. */
export const topicIdHex = (name: string): Hex => keccak256(toBytes(name));

const NODE_NAMES = ["TOPIC", "AND", "OR", "NOT"] as const;

const checksummed = (list: readonly string[]) => list.map((a) => getAddress(a));
const integer = (value: bigint | number): number | string =>
  BigInt(value) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : BigInt(value).toString();

type Decoder = (params: Hex) => Record<string, unknown>;
const decode = (types: string, params: Hex) => decodeAbiParameters(parseAbiParameters(types), params) as unknown[];

const addressList =
  (name: string): Decoder =>
  (params) => {
    const [list] = decode("address[]", params) as [string[]];
    return { [name]: checksummed(list) };
  };

const countries: Decoder = (params) => {
  const [list] = decode("uint16[]", params) as [number[]];
  return { countries: list.map(Number) };
};

const investorCount: Decoder = (params) => {
  const [maxInvestors, list, limits] = decode("uint256, uint16[], uint256[]", params) as [bigint, number[], bigint[]];
  return { maxInvestors: integer(maxInvestors), countries: list.map(Number), countryLimits: limits.map(integer) };
};

const transferApproval: Decoder = (params) => {
  const [approvers, validity] = decode("address[], uint64", params) as [string[], bigint];
  return { approvers: checksummed(approvers), approvalValidity: integer(validity) };
};

/** The decoders by the v2 control they belong to; legacy v1 ids share their twin's (same params). */
const DECODERS: Record<string, Decoder> = {
  "address-block-list-v2": addressList("blocked"),
  "capital-raise-limit": (params) => {
    const [maxTotal, periodLimit, periodLength] = decode("uint256, uint256, uint64", params) as bigint[];
    return { maxTotal: maxTotal.toString(), periodLimit: periodLimit.toString(), periodLength: integer(periodLength) };
  },
  "capped-v2": (params) => {
    const [maxSupply] = decode("uint256", params) as [bigint];
    return { maxSupply: maxSupply.toString() };
  },
  "collateral-v2": (params) => {
    const [oracle, ratioBps] = decode("address, uint32", params) as [string, number];
    return { oracle: getAddress(oracle), ratioBps: Number(ratioBps) };
  },
  "country-allow-list-v2": countries,
  "country-block-list-v2": countries,
  "identity-allow-list-v2": addressList("identities"),
  "identity-block-list-v2": addressList("identities"),
  "identity-verification-v2": (params) => {
    const [nodes] = decode("(uint8 nodeType, uint256 value)[]", params) as [{ nodeType: number; value: bigint }[]];
    const expression: DecodedExpressionNode[] = nodes.map((node, index) => {
      const nodeType = NODE_NAMES[node.nodeType];
      if (!nodeType) throw new Error(`identity-verification-v2: unknown node type ${node.nodeType} at ${index}`);
      return nodeType === "TOPIC" ? { nodeType, topicId: toHex(node.value, { size: 32 }) } : { nodeType };
    });
    return { expression };
  },
  "investor-count-v2": investorCount,
  "time-lock-v2": (params) => {
    const [lockDuration] = decode("uint64", params) as [bigint];
    return { lockDuration: integer(lockDuration) };
  },
  "transfer-approval-v2": transferApproval,
  "country-allow-list": countries,
  "investor-count": investorCount,
  "transfer-approval": transferApproval,
};

/**
 * The `params` JSON of a module of control `typeId` from its ABI-encoded `bytes params` (the inverse of
 * `controlType(typeId).encodeParams`, identity-verification-v2 topics excepted: see the file's header).
 * Throws for a type id outside the catalogue and for params that do not decode as that control's.
 */
export function decodeControlParams(typeId: string, params: Hex): Record<string, unknown> {
  const decoder = controlType(typeId) ? DECODERS[typeId] : undefined;
  if (!decoder) throw new Error(`Unknown compliance control type ${typeId}`);
  try {
    return decoder(params);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    const shown = params.length > 66 ? `${params.slice(0, 66)}…` : params;
    throw new Error(`The params ${shown} do not decode as ${typeId}: ${reason}`, { cause: error });
  }
}

/** decodeControlParams, or undefined when the type id is unknown or the params do not decode (for read models). */
export function tryDecodeControlParams(typeId: string, params: Hex): Record<string, unknown> | undefined {
  try {
    return decodeControlParams(typeId, params);
  } catch {
    return undefined;
  }
}
