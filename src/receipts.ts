// The logs of an event's transaction, from its block's receipts: one eth_getBlockReceipts per block however many of
// its transactions and events are indexed (a backfill block holds dozens of batch mints), keyed by block hash so that
// a reorg's re-included transaction reads anew. A node without that method (or refusing a block hash) is asked per
// transaction instead, once per transaction. Read with a client of our own, not context.client: Ponder paces its
// client's requests (from 20 a second, rising slowly), which made one receipt per transaction the indexer's
// bottleneck; receipts by block hash need none of its block-pinned caching. Each chain is read from its own RPC URL,
// and its blocks and transactions are cached under its chain id.
// While consecutive blocks hold indexed events (a backfill of a busy token), the next block's receipts are read
// ahead by number, so that the handlers do not wait for the node at each block; they are used only if that block's
// hash is the event's (a reorg in between reads anew).
import { type Address, createPublicClient, type Hex, http, type PublicClient, toHex } from "viem";
import { refusedByNode } from "../domain/evm/rpc-errors.ts";
import { ponderRpcUrl } from "./indexer-env.ts";

export interface ReceiptLog {
  address: Address;
  logIndex: number;
  topics: readonly Hex[];
  data: Hex;
}

interface InTransaction {
  block: { hash: Hex; number: bigint };
  transaction: { hash: Hex };
}

interface RawReceipt {
  blockHash: Hex;
  transactionHash: Hex;
  logs: { address: Address; logIndex: Hex; topics: Hex[]; data: Hex }[];
}

type BlockLogs = Map<string, readonly ReceiptLog[]>;

/** Blocks (and, on the fallback, transactions) whose logs are kept: handlers run in chain order. */
const KEPT = 256;
const KEPT_BLOCKS = 4;
/** Keyed by `<chainId>/<block hash>` and `<chainId>/<block hash>/<transaction hash>`. */
const logsByBlock = new Map<string, Promise<BlockLogs>>();
const logsByTransaction = new Map<string, Promise<readonly ReceiptLog[]>>();
/**
 * Per chain, reading ahead: the last block the handlers asked for, below which block number nothing is read ahead
 * (the index reached the chain's head), and the block read ahead with its receipts (null: not mined, or unreadable).
 */
interface ReadAhead {
  lastAsked?: bigint;
  quietUntil: bigint;
  block?: { number: bigint; receipts: Promise<{ hash: Hex; logs: BlockLogs } | null> };
}
const readAheads = new Map<number, ReadAhead>();
const QUIET_BLOCKS = 16n;
const readAheadOf = (chainId: number) => {
  const state = readAheads.get(chainId) ?? { quietUntil: 0n };
  readAheads.set(chainId, state);
  return state;
};
/** Per chain: whether its node answers eth_getBlockReceipts (absent: unknown yet). */
const blockReceipts = new Map<number, "supported" | "unsupported">();
const clients = new Map<number, PublicClient>();

const rpc = (chainId: number) => {
  let client = clients.get(chainId);
  if (!client) {
    client = createPublicClient({ transport: http(ponderRpcUrl(chainId), { retryCount: 5 }) });
    clients.set(chainId, client);
  }
  return client;
};

// Only four fields of each log are read: not worth formatting every one (a block has thousands).
const toLogs = (receipt: RawReceipt): readonly ReceiptLog[] =>
  receipt.logs.map(({ address, logIndex, topics, data }) => ({ address, logIndex: Number(logIndex), topics, data }));

const byTransaction = (receipts: RawReceipt[]): BlockLogs =>
  new Map(receipts.map((receipt) => [receipt.transactionHash.toLowerCase(), toLogs(receipt)]));

function remember<T>(cache: Map<string, Promise<T>>, key: string, kept: number, read: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = read();
    value.catch(() => cache.delete(key)); // a failed read is retried by the next event
    cache.set(key, value);
    if (cache.size > kept) cache.delete(cache.keys().next().value!);
  }
  return value;
}

const readReceipts = (chainId: number, block: Hex) =>
  rpc(chainId).request({
    method: "eth_getBlockReceipts" as "eth_getTransactionReceipt",
    params: [block],
  }) as unknown as Promise<RawReceipt[] | null>;

/**
 * Starts reading block `number`'s receipts, unless already read ahead. A block not mined yet (the index is at the
 * chain's head, as it is when live) pauses reading ahead for QUIET_BLOCKS blocks: one wasted request per 16 blocks.
 */
function readBlockAhead(state: ReadAhead, chainId: number, number: bigint) {
  if (state.block?.number === number || number < state.quietUntil) return;
  const notMined = () => {
    state.quietUntil = number + QUIET_BLOCKS;
    return null;
  };
  const receipts = readReceipts(chainId, toHex(number)).then((list) => {
    if (!list) return notMined();
    return list.length ? { hash: list[0].blockHash.toLowerCase() as Hex, logs: byTransaction(list) } : null;
  }, notMined);
  state.block = { number, receipts };
}

/** The receipts of block `number`, when they were read ahead and are of the block `hash`. */
async function readAheadLogs(state: ReadAhead, number: bigint, hash: Hex): Promise<BlockLogs | undefined> {
  if (state.block?.number !== number) return undefined;
  const block = await state.block.receipts;
  return block?.hash === hash.toLowerCase() ? block.logs : undefined;
}

const blockLogs = (chainId: number, block: InTransaction["block"]) =>
  remember(logsByBlock, `${chainId}/${block.hash}`, KEPT_BLOCKS, async () => {
    const state = readAheadOf(chainId);
    const ahead = readAheadLogs(state, block.number, block.hash); // before the next block replaces it
    // Consecutive blocks with events: the next one likely holds some too.
    if (state.lastAsked === block.number - 1n) readBlockAhead(state, chainId, block.number + 1n);
    state.lastAsked = block.number;
    const logs = await ahead;
    if (logs) return logs;
    const receipts = await readReceipts(chainId, block.hash);
    if (!receipts) throw new Error(`No receipts for block ${block.hash}`);
    return byTransaction(receipts);
  });

const oneTransactionLogs = (chainId: number, event: InTransaction) =>
  remember(logsByTransaction, `${chainId}/${event.block.hash}/${event.transaction.hash}`, KEPT, async () => {
    const receipt = await rpc(chainId).request({
      method: "eth_getTransactionReceipt",
      params: [event.transaction.hash],
    });
    if (!receipt) throw new Error(`No receipt for ${event.transaction.hash}`);
    return toLogs(receipt as unknown as RawReceipt);
  });

/** The logs of the transaction of an event on chain `chainId`. */
export async function transactionLogs(chainId: number, event: InTransaction): Promise<readonly ReceiptLog[]> {
  if (blockReceipts.get(chainId) !== "unsupported") {
    try {
      const logs = (await blockLogs(chainId, event.block)).get(event.transaction.hash.toLowerCase());
      blockReceipts.set(chainId, "supported");
      if (logs) return logs;
    } catch (error) {
      // Method not found or the block hash refused, before any success: this chain's node answers per transaction.
      if (!blockReceipts.has(chainId) && refusedByNode(error)) blockReceipts.set(chainId, "unsupported");
    }
  }
  return oneTransactionLogs(chainId, event);
}

/** Pure: the position of the log at block-level `logIndex` among its transaction's logs (the spec's txIndex). */
export function logIndexInTransaction(logIndex: number, logs: readonly { logIndex: number }[]): number {
  const position = logs.findIndex((log) => log.logIndex === logIndex);
  return position >= 0 ? position : logIndex - (logs[0]?.logIndex ?? 0);
}
