// ERC-7562's STO-040 among the live operations of one EntryPoint's mempool on a chain: an address is a sender or an
// entity (paymaster, factory), never both. An operation naming as its paymaster or factory the sender of a live
// operation is refused, and so is one whose sender is the paymaster or factory of a live operation: either pair would
// let one operation's execution change what the other's validation reads.
import { sql } from "kysely";
import { rpcError } from "./rpc-error.ts";
import type { BundlerDb } from "./tables.ts";

export interface MempoolScope {
  chainId: number;
  entryPoint: string;
}

/** SQL true when a live operation of the scope makes `sender` with `entities` break STO-040 (so does the quick
 * insert's function, bundler migration 0010). */
export function senderEntityOverlap(scope: MempoolScope, sender: string, entities: readonly string[]) {
  const named = entities.length > 0 ? entities : [""];
  return sql<boolean>`exists (select 1 from platform.bundler_user_operations
    where chain_id = ${scope.chainId} and entry_point = ${scope.entryPoint} and status in ('pending', 'submitted')
      and (sender = any(${named}::text[]) or paymaster = ${sender} or factory = ${sender}))`;
}

/** Throws -32502 [STO-040] when the operation's sender or entities overlap a live operation's. */
export async function assertSenderNotEntity(
  db: BundlerDb,
  scope: MempoolScope,
  sender: string,
  entities: readonly string[],
): Promise<void> {
  const { rows } = await sql<{
    overlap: boolean;
  }>`select ${senderEntityOverlap(scope, sender, entities)} as overlap`.execute(db);
  if (rows[0]?.overlap)
    throw rpcError(
      "BUNDLER_STORAGE_ACCESS_BANNED",
      "[STO-040] An address may be a sender or a paymaster/factory among the mempool's operations, not both (ERC-7562)",
      { rule: "STO-040", sender, entities: [...entities] },
    );
}
