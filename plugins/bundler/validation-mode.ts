// BUNDLER_VALIDATION per chain: `safe` traces validation under every ERC-7562 rule; `unsafe` is a plain eth_call of
// the EntryPoint's simulation, for a node the operator trusts. Unset: `unsafe` on the platform's own embedded anvils,
// `safe` on any other chain.
import type { ChainSetting } from "../../host/config.ts";

export type ValidationMode = "safe" | "unsafe";

export function validationMode(
  setting: ValidationMode | undefined,
  chains: readonly ChainSetting[],
  chainId: number,
): ValidationMode {
  if (setting) return setting;
  const embedded = chains.find((chain) => chain.chainId === chainId)?.anvilPort !== undefined;
  return embedded ? "unsafe" : "safe";
}
