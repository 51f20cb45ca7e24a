// The nonce a signer's next write takes: the node's pending count, or above it while our reservation is still held.
// A nonce we reserved but the node no longer counts stays held only by a write of ours that is outstanding (signed,
// not yet mined: its bytes go out again) or whose receipt the node still serves (its count lags). Otherwise a reorg
// removed that transaction (anvil does not return removed transactions to its pool): signing above the count would
// leave a nonce gap nothing fills, and every later write of the signer would wait behind it for good.
import type { Transaction } from "kysely";
import type { ChainService } from "../chain/chain-service.ts";
import type { PlatformTables } from "../db/platform-types.ts";
import { receiptOfAny } from "./receipts.ts";

export async function nextNonce(
  trx: Transaction<PlatformTables>,
  chain: ChainService,
  signer: { chainId: number; fromAddress: string; reserved: number; pending: number },
): Promise<number> {
  const { chainId, fromAddress, reserved, pending } = signer;
  if (reserved <= pending) return pending;
  const holders = await trx
    .selectFrom("transactionRequests")
    .select(["nonce", "status", "transactionHash", "replacedHashes"])
    .where("chainId", "=", chainId)
    .where("fromAddress", "=", fromAddress)
    .where("nonce", ">=", pending)
    .where("nonce", "<", reserved)
    .orderBy("nonce", "desc")
    .execute();
  for (const row of holders) {
    const outstanding = row.status === "QUEUED" || row.status === "CONFIRMING";
    if (outstanding || (await receiptOfAny(chain, row))) return (row.nonce as number) + 1;
  }
  return pending;
}
