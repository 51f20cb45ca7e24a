// Reading the facts an indexed webhook event tells of from the activity feed's events (ledger views): the rows of
// some event names in a block range, each with its parameters by name and its observation key (the transaction
// hash and the log's position in the transaction, which a reorg that re-includes the transaction keeps).
import type { NotNull } from "kysely";
import { decodeValues } from "../../domain/activity/event-columns.ts";
import type { LedgerDb } from "../db/database.ts";
import type { IndexedObservation } from "../plugin.ts";

export interface BlockRange {
  fromBlock: bigint;
  toBlock: bigint;
}

export async function activityInBlocks(ledger: LedgerDb, eventNames: readonly string[], range: BlockRange) {
  const rows = await ledger
    .selectFrom("activityEvent")
    .select(["id", "system", "eventName", "emitter", "token", "sender", "values", "blockNumber"])
    .select(["transactionHash", "logIndex", "txIndex"])
    .where("eventName", "in", eventNames)
    // A token's events from before its system announced it belong to no system, so to no organisation's webhooks.
    .where("system", "is not", null)
    .$narrowType<{ system: NotNull }>()
    .where("blockNumber", ">=", range.fromBlock)
    .where("blockNumber", "<=", range.toBlock)
    .orderBy("ordinal")
    .execute();
  return rows.map((encoded) => {
    const values = decodeValues(encoded.values);
    const row = { ...encoded, values };
    return {
      ...row,
      arg: (name: string) => values.find((v) => v.name === name)?.value ?? "",
      observation: (payload: unknown, related: Record<string, string>): IndexedObservation => ({
        key: `${row.transactionHash}:${row.txIndex}`,
        systemAddress: row.system,
        blockNumber: row.blockNumber,
        transactionHash: row.transactionHash,
        payload,
        related,
      }),
    };
  });
}
