// A transaction request's `description`: its calldata decoded against the platform ABIs, or null.
import { decodeFunctionData, type Hex } from "viem";
import { PLATFORM_FUNCTIONS } from "../chain/platform-abi.ts";

const show = (v: unknown): string => (Array.isArray(v) ? `[${v.map(show).join(", ")}]` : String(v));

export function describeCall(data: string): string | null {
  try {
    const { functionName, args } = decodeFunctionData({ abi: PLATFORM_FUNCTIONS, data: data as Hex });
    return `${functionName}(${(args ?? []).map(show).join(", ")})`;
  } catch {
    return null;
  }
}
