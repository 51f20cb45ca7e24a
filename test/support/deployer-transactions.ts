// Every transaction one account sent on a chain, with its outcome: to check that a deployment sent each contract's
// creation once (a resend of a lost answer must not land as a second transaction, not even a reverted one).
import { type Address, createPublicClient, type Hex, http } from "viem";

export interface SentTransaction {
  hash: Hex;
  input: Hex;
  success: boolean;
}

export async function transactionsFrom(rpcUrl: string, from: Address): Promise<SentTransaction[]> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const head = await client.getBlockNumber();
  const sent: SentTransaction[] = [];
  for (let n = 0n; n <= head; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (tx.from.toLowerCase() !== from.toLowerCase()) continue;
      const receipt = await client.getTransactionReceipt({ hash: tx.hash });
      sent.push({ hash: tx.hash, input: tx.input, success: receipt.status === "success" });
    }
  }
  return sent;
}

/** The creations sent more than once (by their bytes), and the transactions that failed: both empty when all is well. */
export function duplicatesAndFailures(sent: SentTransaction[]): { duplicated: number; failed: number } {
  return {
    duplicated: sent.length - new Set(sent.map((tx) => tx.input)).size,
    failed: sent.filter((tx) => !tx.success).length,
  };
}
