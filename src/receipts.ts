// The logs of an event's transaction, read from its receipt once per transaction however many of its events are
// indexed (a batch mint emits a hundred), and keyed by block so that a reorg's re-included transaction reads anew.
// Read with a client of our own, not context.client: Ponder paces its client's requests (from 20 a second, rising
// slowly), which made one receipt per transaction the indexer's bottleneck; a receipt by hash needs none of its
// block-pinned caching.
import { type Address, createPublicClient, type Hex, http } from "viem";
import { ponderRpcUrl } from "./rpc-url.ts";

export interface ReceiptLog {
  address: Address;
  logIndex: number;
  topics: readonly Hex[];
  data: Hex;
}

interface InTransaction {
  block: { hash: Hex };
  transaction: { hash: Hex };
}

const KEPT = 256;
const logsByTransaction = new Map<string, Promise<readonly ReceiptLog[]>>();
let client: ReturnType<typeof createPublicClient> | undefined;

export function transactionLogs(event: InTransaction): Promise<readonly ReceiptLog[]> {
  const key = `${event.block.hash}/${event.transaction.hash}`;
  let logs = logsByTransaction.get(key);
  if (!logs) {
    client ??= createPublicClient({ transport: http(ponderRpcUrl(), { retryCount: 5 }) });
    // The raw receipt: only four fields of each log are read, not worth formatting every one (a batch has hundreds).
    logs = client.request({ method: "eth_getTransactionReceipt", params: [event.transaction.hash] }).then((receipt) => {
      if (!receipt) throw new Error(`No receipt for ${event.transaction.hash}`);
      return receipt.logs.map(({ address, logIndex, topics, data }) => ({
        address,
        logIndex: Number(logIndex),
        topics,
        data,
      }));
    });
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
