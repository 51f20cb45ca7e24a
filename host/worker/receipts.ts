// The receipt of a write, whichever of its signed versions was mined (the current bytes or one a fee bump replaced).
import { type Hex, TransactionReceiptNotFoundError } from "viem";
import { blockReceiptsOf } from "../chain/block-receipts.ts";
import type { ChainService } from "../chain/chain-service.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";

type WriteHashes = Pick<TransactionRequestRow, "transactionHash" | "replacedHashes">;

export async function receiptOf(chain: ChainService, hash: Hex) {
  try {
    return await chain.client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return undefined;
    throw error; // the node is unreachable: the caller's run retries
  }
}

/** Earlier versions only: the caller has just looked up the current hash. */
export async function receiptOfReplaced(chain: ChainService, row: Pick<TransactionRequestRow, "replacedHashes">) {
  for (const hash of row.replacedHashes ?? []) {
    const receipt = await receiptOf(chain, hash as Hex);
    if (receipt) return receipt;
  }
  return undefined;
}

export async function receiptOfAny(chain: ChainService, row: WriteHashes) {
  return (
    (row.transactionHash ? await receiptOf(chain, row.transactionHash as Hex) : undefined) ??
    (await receiptOfReplaced(chain, row))
  );
}

/**
 * The receipts of writes the signer's nonce count says are mined, in order: from the chain's block watcher, brought
 * up to the head first (one eth_getBlockReceipts a new block, however many writes it holds), and asked of the node
 * per hash only for a write the watcher does not hold (mined before its first block, in a block it could not read,
 * or not at all: another transaction took the nonce).
 */
export async function receiptsOfMined(chain: ChainService, rows: readonly WriteHashes[]) {
  if (rows.length === 0) return [];
  const watcher = blockReceiptsOf(chain);
  await watcher.sync().catch(() => undefined); // a failed read leaves each write to the node
  const watched = (row: WriteHashes) =>
    [row.transactionHash, ...(row.replacedHashes ?? [])]
      .flatMap((hash) => (hash ? [watcher.receipt(hash)] : []))
      .find(Boolean);
  return Promise.all(rows.map(async (row) => watched(row) ?? (await receiptOfAny(chain, row))));
}
