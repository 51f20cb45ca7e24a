// Every ABI item of the platform's contracts, for decoding calldata and revert data of any platform call.
import { type Abi, type AbiFunction, toFunctionSelector, toFunctionSignature } from "viem";
import { PLATFORM_ABIS } from "../../abis/index.ts";

type AbiError = Extract<Abi[number], { type: "error" }>;

/** One item per signature: contracts share errors and functions (e.g. AccessControl's). */
function unique<T extends AbiError | AbiFunction>(items: T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    const key = toFunctionSelector(toFunctionSignature(item as AbiFunction));
    if (!seen.has(key)) seen.set(key, item);
  }
  return [...seen.values()];
}

const ALL = (PLATFORM_ABIS as readonly Abi[]).flat();

export const PLATFORM_FUNCTIONS = unique(ALL.filter((item): item is AbiFunction => item.type === "function")) as Abi;
export const PLATFORM_ERRORS = unique(ALL.filter((item): item is AbiError => item.type === "error")) as Abi;
