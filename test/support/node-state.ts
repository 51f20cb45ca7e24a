// What the chain's node says of a write a test waited for in vain (printed in its failure): each of its hashes'
// transaction, its signer's mined and pending nonce counts, and the node's pool (a nonce gap, a dropped transaction or
// one never sent each look different here).
import type { TestStack } from "./stack.ts";

export async function nodeStateOf(stack: Pick<TestStack, "rpc">, from: string, hashes: string[]) {
  return {
    mined: await stack.rpc("eth_getTransactionCount", [from, "latest"]),
    pending: await stack.rpc("eth_getTransactionCount", [from, "pending"]),
    hashes: await Promise.all(
      hashes.map(async (hash) => ({ hash, tx: await stack.rpc("eth_getTransactionByHash", [hash]) })),
    ),
    pool: await stack.rpc("txpool_inspect"),
  };
}
