// A transaction request's `description`: its calldata decoded against the platform ABIs, or null.
import { type Abi, decodeFunctionData, type Hex } from "viem";
import { SystemAbi } from "../../abis/System.ts";
import { SystemFactoryAbi } from "../../abis/SystemFactory.ts";
import { TokenAbi } from "../../abis/Token.ts";
import { TokenFactoryAbi } from "../../abis/TokenFactory.ts";

const FUNCTIONS = [...TokenAbi, ...TokenFactoryAbi, ...SystemAbi, ...SystemFactoryAbi].filter(
  (i) => i.type === "function",
) as Abi;

const show = (v: unknown): string => (Array.isArray(v) ? `[${v.map(show).join(", ")}]` : String(v));

export function describeCall(data: string): string | null {
  try {
    const { functionName, args } = decodeFunctionData({ abi: FUNCTIONS, data: data as Hex });
    return `${functionName}(${(args ?? []).map(show).join(", ")})`;
  } catch {
    return null;
  }
}
