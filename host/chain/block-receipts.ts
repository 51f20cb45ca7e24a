// A chain's block-receipt watcher: the receipts of its recent blocks, each block read once with one
// eth_getBlockReceipts however many of our writes it holds, shared by every confirmation run of the process on that
// chain (instead of one eth_getTransactionReceipt per write and poll). It follows the head when asked (`sync`): it
// reads the latest block and every block number since the last one read, at once, not waiting for a following block
// (a node that mines on demand may publish a receipt and then produce no further block). A block is held by number
// with its hash: a reorg (the same number with another hash, or a shorter chain) replaces the old block's receipts.
// A node that refuses the method (as the indexer's src/receipts.ts meets it) turns the watcher off: callers ask the
// node per transaction then, as they do for any transaction the watcher does not hold.
import {
  formatTransactionReceipt,
  type Hex,
  type PublicClient,
  type RpcTransactionReceipt,
  type TransactionReceipt,
} from "viem";
import { refusedByNode } from "../../domain/evm/rpc-errors.ts";
import type { ChainService } from "./chain-service.ts";

/** Recent blocks whose receipts are held: a confirmation run asks within a poll or two of a block. */
export const KEPT_BLOCKS = 64;

export interface BlockReceipts {
  /** Reads the blocks mined since the last read (those a reorg replaced anew); calls meanwhile share one next read. */
  sync(): Promise<void>;
  /** The receipt of a transaction in one of the recent blocks read, if any (undefined: not seen, ask the node). */
  receipt(hash: Hex | string): TransactionReceipt | undefined;
  /** The block numbers held, oldest first (for tests and metrics). */
  heldBlocks(): bigint[];
}

interface Header {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  transactions: readonly unknown[];
}

interface HeldBlock {
  hash: Hex;
  transactions: string[];
}

const watchers = new WeakMap<ChainService, BlockReceipts>();

/** The watcher of `chain`, one per process and chain service. */
export function blockReceiptsOf(chain: ChainService): BlockReceipts {
  let watcher = watchers.get(chain);
  if (!watcher) {
    watcher = createBlockReceipts(chain.client);
    watchers.set(chain, watcher);
  }
  return watcher;
}

export function createBlockReceipts(client: PublicClient, keptBlocks = KEPT_BLOCKS): BlockReceipts {
  const blocks = new Map<bigint, HeldBlock>(); // by number, ascending (inserted in order, removed from either end)
  const receipts = new Map<string, TransactionReceipt>(); // by lowercase transaction hash
  let unsupported = false;
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;

  const newest = () => [...blocks.keys()].at(-1);
  const forget = (number: bigint) => {
    for (const hash of blocks.get(number)?.transactions ?? []) receipts.delete(hash);
    blocks.delete(number);
  };
  const forgetFrom = (number: bigint) => {
    for (const held of [...blocks.keys()]) if (held >= number) forget(held);
  };

  const readReceipts = async (header: Header): Promise<TransactionReceipt[]> => {
    if (header.transactions.length === 0) return [];
    const raw = (await client.request({
      method: "eth_getBlockReceipts" as "eth_getTransactionReceipt",
      params: [header.hash],
    })) as unknown as RpcTransactionReceipt[] | null;
    if (!raw) throw new Error(`no receipts for block ${header.hash} (replaced meanwhile)`);
    return raw.map((receipt) => formatTransactionReceipt(receipt));
  };

  /** The blocks from the first one not held as the chain has it up to `latest`, oldest first. */
  async function freshBlocks(latest: Header): Promise<Header[] | undefined> {
    const held = newest();
    if (held !== undefined && latest.number - held > BigInt(keptBlocks)) forgetFrom(0n); // too far behind: anew
    const from = newest();
    const gap: bigint[] = [];
    for (let n = (from ?? latest.number) + 1n; n < latest.number; n++) gap.push(n);
    const fresh = [...(await Promise.all(gap.map((n) => client.getBlock({ blockNumber: n })))), latest] as Header[];
    for (let i = 1; i < fresh.length; i++) if (fresh[i].parentHash !== fresh[i - 1].hash) return undefined; // reorg meanwhile
    // A held block that is not the parent of the first fresh one was replaced by a reorg: read back to the fork.
    for (;;) {
      const parent = blocks.get(fresh[0].number - 1n);
      if (!parent || parent.hash === fresh[0].parentHash) return fresh;
      fresh.unshift((await client.getBlock({ blockHash: fresh[0].parentHash })) as Header);
    }
  }

  async function read(): Promise<void> {
    if (unsupported) return;
    const latest = (await client.getBlock({ blockTag: "latest" })) as Header;
    const held = newest();
    if (held !== undefined && held > latest.number) forgetFrom(latest.number + 1n); // a shorter chain (a revert)
    if (blocks.get(latest.number)?.hash === latest.hash) return;
    const fresh = await freshBlocks(latest);
    if (!fresh) return; // the chain changed while read: the next sync reads it again
    let byBlock: TransactionReceipt[][];
    try {
      byBlock = await Promise.all(fresh.map(readReceipts));
    } catch (error) {
      if (!refusedByNode(error)) throw error;
      unsupported = true; // this node answers per transaction only
      forgetFrom(0n);
      return;
    }
    forgetFrom(fresh[0].number);
    fresh.forEach((header, i) => {
      const transactions = byBlock[i].map((receipt) => receipt.transactionHash.toLowerCase());
      blocks.set(header.number, { hash: header.hash, transactions });
      for (const receipt of byBlock[i]) receipts.set(receipt.transactionHash.toLowerCase(), receipt);
    });
    while (blocks.size > keptBlocks) forget(blocks.keys().next().value as bigint);
  }

  const start = (): Promise<void> => {
    const run = read().finally(() => {
      if (running === run) running = undefined;
    });
    running = run;
    return run;
  };

  return {
    // A caller's read must begin after its call (it follows a nonce count it just read): one in flight may have
    // begun earlier, so calls meanwhile share the next one.
    sync() {
      if (!running) return start();
      queued ??= running
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return start();
        });
      return queued;
    },
    receipt: (hash) => receipts.get(hash.toLowerCase()),
    heldBlocks: () => [...blocks.keys()],
  };
}
