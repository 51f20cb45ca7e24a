// The logs of an event's transaction, read from its receipt once per transaction however many of its events are
// indexed (a batch mint emits a hundred), and keyed by block so that a reorg's re-included transaction reads anew.
import type { Context } from "ponder:registry";
import type { Address, Hex } from "viem";

export interface ReceiptLog {
  address: Address;
  logIndex: number;
  topics: readonly Hex[];
  data: Hex;
}

interface InTransaction {
  block: { hash: Hex };
  transaction: { hash: Hex };
  log: { logIndex: number };
}

const KEPT = 256;
const logsByTransaction = new Map<string, Promise<readonly ReceiptLog[]>>();

export function transactionLogs(context: Context, event: InTransaction): Promise<readonly ReceiptLog[]> {
  const key = `${event.block.hash}/${event.transaction.hash}`;
  let logs = logsByTransaction.get(key);
  if (!logs) {
    logs = context.client.getTransactionReceipt({ hash: event.transaction.hash }).then((receipt) => receipt.logs);
    logs.catch(() => logsByTransaction.delete(key)); // a failed read is retried by the next event
    logsByTransaction.set(key, logs);
    if (logsByTransaction.size > KEPT) logsByTransaction.delete(logsByTransaction.keys().next().value!);
  }
  return logs;
}

/** Pure: the position of the log at block-level `logIndex` among its transaction's logs (the spec's txIndex). */
export function logIndexInTransaction(logIndex: number, logs: readonly { logIndex: number }[]): number {
  const position = logs.findIndex((log) => log.logIndex === logIndex);
  return position >= 0 ? position : logIndex - (logs[0]?.logIndex ?? 0);
}
