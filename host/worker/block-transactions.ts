// Which transactions each of some blocks holds now, read from the chain (a reorg may have replaced a block).
import type { ServedChain } from "../chain/served-chains.ts";

/** By block number, the block's transaction hashes in lower case; undefined: no such block, the chain is shorter. */
export async function blockTransactions(
  chain: ServedChain,
  numbers: bigint[],
): Promise<Map<bigint, Set<string> | undefined>> {
  const blocks = await Promise.all(
    numbers.map((blockNumber) =>
      chain.client
        .getBlock({ blockNumber })
        .then((block) => new Set(block.transactions.map((hash) => hash.toLowerCase())))
        .catch((error: Error) => {
          if (error.name === "BlockNotFoundError") return undefined;
          throw error; // the node is unreachable: the run fails and is retried
        }),
    ),
  );
  return new Map(numbers.map((n, i) => [n, blocks[i]]));
}
