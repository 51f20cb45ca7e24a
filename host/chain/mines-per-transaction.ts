// Whether a node mines a block per transaction (anvil's or hardhat's automine), asked at the time: tests switch it.
import type { PublicClient } from "viem";
import { refusedByNode } from "../../domain/evm/rpc-errors.ts";

/** Nodes that answered they have no such method (a real chain's): never asked again. */
const unsupported = new WeakSet<PublicClient>();

/**
 * True while the node mines a block per transaction. Such a node (anvil, foundry issue 10122) can take a batch's
 * transactions out of nonce order and then stall on the gap for good; any other node holds a transaction ahead of a
 * gap until the gap fills. A node without the method (a real chain's) mines by its own schedule: false.
 */
export async function minesPerTransaction(client: PublicClient): Promise<boolean> {
  if (unsupported.has(client)) return false;
  try {
    return (await client.request({ method: "anvil_getAutomine" as "eth_chainId" })) === (true as never);
  } catch (error) {
    if (refusedByNode(error)) unsupported.add(client); // no such method: not a development node
    return false;
  }
}
