// A transaction request's `description`: its calldata decoded against the platform ABIs, or null.
import { decodeFunctionData, type Hex } from "viem";
import { PLATFORM_FUNCTIONS } from "../chain/platform-abi.ts";

/** Arrays as [a, b], tuples (decoded as objects) as (a, b), everything else as its string. */
const show = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(show).join(", ")}]`;
  if (v && typeof v === "object") return `(${Object.values(v).map(show).join(", ")})`;
  return String(v);
};

export function describeCall(data: string): string | null {
  try {
    const { functionName, args } = decodeFunctionData({ abi: PLATFORM_FUNCTIONS, data: data as Hex });
    return `${functionName}(${(args ?? []).map(show).join(", ")})`;
  } catch {
    return null;
  }
}
