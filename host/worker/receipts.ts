// The receipt of a write, whichever of its signed versions was mined (the current bytes or one a fee bump replaced).
import { type Hex, TransactionReceiptNotFoundError } from "viem";
import type { ChainService } from "../chain/chain-service.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";

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

export async function receiptOfAny(
  chain: ChainService,
  row: Pick<TransactionRequestRow, "transactionHash" | "replacedHashes">,
) {
  return (
    (row.transactionHash ? await receiptOf(chain, row.transactionHash as Hex) : undefined) ??
    (await receiptOfReplaced(chain, row))
  );
}
