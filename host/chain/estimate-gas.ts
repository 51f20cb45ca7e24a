// A write's gas as estimated for the next block: at a timestamp past the latest block's, as the node will mine it.
// Contracts keyed by timestamp (OpenZeppelin Checkpoints: the historical balances feature) append a storage slot in a
// new block but update one in place within a block; estimated at the latest block's own timestamp (a development node
// estimates at its clock, the latest block's second), a write right after another to the same account came out
// ~20,000 gas a slot short and reverted out of gas on chain.
import { type Account, type Address, type Hex, type PublicClient, toHex } from "viem";
import { refusedByNode } from "../../domain/evm/rpc-errors.ts";

/** Nodes that refused block overrides in eth_estimateGas: estimated plainly from then on. */
const withoutOverrides = new WeakSet<PublicClient>();

export interface GasQuery {
  account: Account;
  to: Address;
  data: Hex;
  value: bigint;
}

/** The timestamp a block mined after the latest one has at least (one to pass to estimateGasForNextBlock). */
export async function nextBlockTimestamp(client: PublicClient): Promise<bigint> {
  return (await client.getBlock({ blockTag: "latest" })).timestamp + 1n;
}

/**
 * eth_estimateGas with the block's timestamp overridden to `timestamp`; plainly (viem's estimateGas, whose errors
 * carry the revert) when that fails or the node takes no block overrides.
 */
export async function estimateGasForNextBlock(
  client: PublicClient,
  query: GasQuery,
  timestamp: bigint,
): Promise<bigint> {
  if (!withoutOverrides.has(client)) {
    try {
      const request = { from: query.account.address, to: query.to, data: query.data, value: toHex(query.value) };
      const params = [request, "latest", {}, { time: toHex(timestamp) }];
      return BigInt(await client.request({ method: "eth_estimateGas", params: params as never }));
    } catch (error) {
      if (refusedByNode(error)) withoutOverrides.add(client); // the overrides refused: estimated plainly from now on
    }
  }
  return client.estimateGas({ account: query.account, to: query.to, data: query.data, value: query.value });
}
