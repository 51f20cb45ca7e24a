// The decimals of an ERC-20 an amount parameter is written in, read from the chain once per process: a token's
// decimals are fixed when it is deployed. A failed read is not kept (it may be a passing RPC failure).
import { type Address, erc20Abi, getAddress } from "viem";
import type { ChainService } from "../../host/chain/chain-service.ts";

const known = new Map<string, number>();

/** The asset's decimals(); throws when it does not answer (not an ERC-20, or the chain is unreachable). */
export async function readAssetDecimals(chain: ChainService, asset: Address): Promise<number> {
  const key = `${chain.chainId}:${getAddress(asset)}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const decimals = await chain.client.readContract({ abi: erc20Abi, address: asset, functionName: "decimals" });
  known.set(key, decimals);
  return decimals;
}
