// The decimals of an ERC-20 an amount parameter is written in, read from the chain once per process: a token's
// decimals are fixed when it is deployed. A failed read is not kept (it may be a passing RPC failure). Kept by the
// chain's node as well as its id: two chains may share an id (two local nodes, as two platforms in one test process
// run), and the same address there may hold different tokens.
import { type Address, erc20Abi, getAddress } from "viem";
import type { ChainService } from "../../host/chain/chain-service.ts";

const known = new Map<string, number>();

/** Where the asset's decimals are kept: the chain's node and id, and the asset's address. */
export function decimalsKey(chain: Pick<ChainService, "chain" | "chainId">, asset: Address): string {
  return `${chain.chain.rpcUrls.default.http[0]} ${chain.chainId}:${getAddress(asset)}`;
}

/** The asset's decimals(); throws when it does not answer (not an ERC-20, or the chain is unreachable). */
export async function readAssetDecimals(chain: ChainService, asset: Address): Promise<number> {
  const key = decimalsKey(chain, asset);
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const decimals = await chain.client.readContract({ abi: erc20Abi, address: asset, functionName: "decimals" });
  known.set(key, decimals);
  return decimals;
}
