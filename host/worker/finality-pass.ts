// One pass of a chain's finality watch: its mined writes (completed or reverted) not yet final, where the chain has
// each now, and what that makes of it (final, still watched, moved to another block, or removed by a reorg).
import type { ServedChain } from "../chain/served-chains.ts";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { blockTransactions } from "./block-transactions.ts";
import { type FinalityDecision, finalityOf, type Inclusion, MINED_STATUSES, type MinedStatus } from "./finality.ts";
import { receiptOfAny } from "./receipts.ts";

export type WatchedWrite = Pick<TransactionRequestRow, "id" | "transactionHash" | "replacedHashes" | "blockNumber"> & {
  status: MinedStatus;
};

/** The chain's unfinal mined EOA writes, newest first (a reorg removes the newest blocks), `limit` at most. */
export function unfinalWrites(db: PlatformDb, chainId: number, limit: number): Promise<WatchedWrite[]> {
  return db
    .selectFrom("transactionRequests")
    .select(["id", "status", "transactionHash", "replacedHashes", "blockNumber"])
    .where("status", "in", MINED_STATUSES)
    .where("finalizedAt", "is", null)
    .where("executor", "=", "eoa")
    .where("chainId", "=", chainId)
    .where("blockNumber", "is not", null)
    .orderBy("blockNumber", "desc")
    .limit(limit)
    .execute() as Promise<WatchedWrite[]>;
}

export interface FinalityVerdicts {
  final: string[];
  reorged: string[];
  moved: { id: string; blockNumber: bigint; transactionHash: string }[];
}

/** The writes by what is to be done with them; the ones still watched are in none. */
export function sortVerdicts(decided: { id: string; decision: FinalityDecision }[]): FinalityVerdicts {
  const verdicts: FinalityVerdicts = { final: [], reorged: [], moved: [] };
  for (const { id, decision } of decided) {
    if (decision.action === "final") verdicts.final.push(id);
    else if (decision.action === "reorged") verdicts.reorged.push(id);
    else if (decision.action === "moved") {
      verdicts.moved.push({ id, blockNumber: decision.blockNumber, transactionHash: decision.transactionHash });
    }
  }
  return verdicts;
}

/** Still in its recorded block, or else where its receipt (of any signed version) puts it, or nowhere. */
async function inclusionOf(
  chain: ServedChain,
  row: WatchedWrite,
  blocks: Map<bigint, Set<string> | undefined>,
): Promise<Inclusion> {
  if (blocks.get(row.blockNumber as bigint)?.has(String(row.transactionHash).toLowerCase())) {
    return { in: "recorded-block" };
  }
  const receipt = await receiptOfAny(chain, row);
  return receipt
    ? {
        in: "other-block",
        blockNumber: receipt.blockNumber,
        transactionHash: receipt.transactionHash,
        success: receipt.status === "success",
      }
    : { in: "none" };
}

/** Each watched write against the chain at `head`, `depth` being the chain's finality depth. */
export async function judgeWrites(
  chain: ServedChain,
  watched: WatchedWrite[],
  head: bigint,
  depth: number,
): Promise<FinalityVerdicts> {
  const blocks = await blockTransactions(chain, [...new Set(watched.map((row) => row.blockNumber as bigint))]);
  const decided: { id: string; decision: FinalityDecision }[] = [];
  for (const row of watched) {
    const inclusion = await inclusionOf(chain, row, blocks);
    const recorded = { blockNumber: row.blockNumber as bigint, status: row.status };
    decided.push({ id: row.id, decision: finalityOf(recorded, inclusion, head, depth) });
  }
  return sortVerdicts(decided);
}

/** Moved writes follow their new block; final ones are marked so. Only while still mined, as they were read. */
export async function recordVerdicts(db: PlatformDb, verdicts: FinalityVerdicts): Promise<void> {
  for (const { id, blockNumber, transactionHash } of verdicts.moved) {
    await db
      .updateTable("transactionRequests")
      .set({ blockNumber, transactionHash, updatedAt: new Date() })
      .where("id", "=", id)
      .where("status", "in", MINED_STATUSES)
      .execute();
  }
  if (verdicts.final.length > 0) {
    await db
      .updateTable("transactionRequests")
      .set({ finalizedAt: new Date() })
      .where("id", "in", verdicts.final)
      .where("status", "in", MINED_STATUSES)
      .execute();
  }
}
