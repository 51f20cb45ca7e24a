// `recalled` events: a final event told from a block that a reorg deeper than the finality depth has since replaced.
// The blocks final events were told in are kept with the hash the chain had then (the newest RECALL_BLOCKS of each
// chain); a check compares the newest with the chain's and, when it differs, every kept block, recalls each final
// event of the replaced ones and rewinds the settling cursor below them, so the facts of the blocks that replaced
// them are told anew.
import type { Kysely, Transaction } from "kysely";
import type { PlatformTables } from "../db/platform-types.ts";
import { statementChunks } from "../db/statement-chunks.ts";
import { replacedBlocks } from "./lifecycle-rules.ts";
import { recordEventsOnce, selectOutbox, successorEvent } from "./outbox.ts";

/** The chain's hashes of the given block numbers (null: no such block yet). */
export type BlockHashes = (numbers: bigint[]) => Promise<Map<bigint, string | null>>;

type Trx = Transaction<PlatformTables>;

/** How many told-final blocks are kept (and checked) per chain. */
export const RECALL_BLOCKS = 64;

/** The chain's hashes of the newest RECALL_BLOCKS of `numbers` (older blocks are not kept, so not asked). */
export async function hashesOf(blockHashes: BlockHashes | undefined, numbers: bigint[]) {
  if (!blockHashes || numbers.length === 0) return new Map<bigint, string | null>();
  const newest = [...new Set(numbers)].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)).slice(0, RECALL_BLOCKS);
  return blockHashes(newest);
}

/** Keeps the blocks final events were just told in, with their hashes; only the newest RECALL_BLOCKS stay. */
export async function recordFinalBlocks(trx: Trx, chainId: number, hashes: ReadonlyMap<bigint, string | null>) {
  const rows = [...hashes].flatMap(([blockNumber, blockHash]) =>
    blockHash ? [{ chainId, blockNumber, blockHash }] : [],
  );
  if (rows.length === 0) return;
  await trx
    .insertInto("webhookFinalBlocks")
    .values(rows)
    .onConflict((oc) => oc.columns(["chainId", "blockNumber"]).doNothing())
    .execute();
  await trx
    .deleteFrom("webhookFinalBlocks")
    .where("chainId", "=", chainId)
    .where("blockNumber", "<", (eb) =>
      eb
        .selectFrom("webhookFinalBlocks")
        .select("blockNumber")
        .where("chainId", "=", chainId)
        .orderBy("blockNumber", "desc")
        .offset(RECALL_BLOCKS - 1)
        .limit(1),
    )
    .execute();
}

const keptBlocks = (trx: Kysely<PlatformTables>, chainId: number, limit: number) =>
  trx
    .selectFrom("webhookFinalBlocks")
    .select(["blockNumber", "blockHash"])
    .where("chainId", "=", chainId)
    .orderBy("blockNumber", "desc")
    .limit(limit)
    .execute();

/** Whether the newest told-final block of the chain is no longer the chain's (one block asked). */
export async function newestFinalBlockReplaced(trx: Kysely<PlatformTables>, chainId: number, blockHashes: BlockHashes) {
  const [newest] = await keptBlocks(trx, chainId, 1);
  return newest !== undefined && replacedBlocks([newest], await blockHashes([newest.blockNumber])).length > 0;
}

export interface Recalled {
  /** The lowest replaced block. */
  from: bigint;
  /** Each recall's id by the fact key of the final event it recalls (`<type>:<chainId>:<key>`). */
  byFact: Map<string, string>;
}

/** Recalls the final events of replaced blocks. */
export async function recallReplaced(
  trx: Trx,
  chainId: number,
  blockHashes: BlockHashes | undefined,
): Promise<Recalled | undefined> {
  if (!blockHashes || !(await newestFinalBlockReplaced(trx, chainId, blockHashes))) return undefined;
  const kept = await keptBlocks(trx, chainId, RECALL_BLOCKS);
  const replaced = replacedBlocks(kept, await blockHashes(kept.map((k) => k.blockNumber)));
  if (replaced.length === 0) return undefined;
  const finals = await selectOutbox(trx)
    .where("chainId", "=", chainId)
    .where("lifecycleState", "=", "final")
    .where("blockNumber", "in", replaced)
    .execute();
  const rows = finals.map((event) => successorEvent(event, "recalled"));
  const byFact = new Map(
    finals.flatMap((f, i) => (f.dedupeKey ? [[f.dedupeKey, (rows[i] as { id: string }).id] as const] : [])),
  );
  await recordEventsOnce(trx, rows);
  // The fact may be final again in the blocks that replaced it.
  for (const chunk of statementChunks(finals)) {
    await trx
      .updateTable("webhookOutbox")
      .set({ dedupeKey: null })
      .where(
        "id",
        "in",
        chunk.map((f) => f.id),
      )
      .execute();
  }
  await trx
    .deleteFrom("webhookFinalBlocks")
    .where("chainId", "=", chainId)
    .where("blockNumber", "in", replaced)
    .execute();
  return { from: replaced.reduce((low, n) => (n < low ? n : low)), byFact };
}
