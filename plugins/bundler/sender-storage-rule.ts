// ERC-7562's STO-041 among one EntryPoint's live operations on a chain: an operation may not use storage in a contract
// that is the sender of another live operation (that one's execution could change what its validation read). As the
// reference bundler reads the rule, any slot of such a contract counts. Judged on the contracts whose storage the
// operation's traced validation accessed (storage-check.ts; recorded with its row): at acceptance against the live
// senders (-32502), and again when a bundle is planned, where an operation whose storage became another live
// operation's sender since (a later or concurrent acceptance) waits with its sender's other operations.
import { rpcError } from "./rpc-error.ts";
import type { MempoolScope } from "./sender-entity-rule.ts";
import type { BundlerDb, UserOperationRow } from "./tables.ts";

/** Of `addresses`, those that are the sender of a live operation (pending or in a bundle not yet mined). */
async function liveSendersAmong(db: BundlerDb, scope: MempoolScope, addresses: readonly string[]) {
  if (addresses.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom("bundlerUserOperations")
    .select("sender")
    .distinct()
    .where("chainId", "=", scope.chainId)
    .where("entryPoint", "=", scope.entryPoint)
    .where("status", "in", ["pending", "submitted"])
    .where("sender", "in", [...addresses])
    .execute();
  return new Set(rows.map((row) => row.sender));
}

/**
 * Throws -32502 [STO-041] when the validation used storage of a contract that is a live operation's sender. Its own
 * paymaster's and factory's storage are not looked up: one of them as a live sender is STO-040's refusal, checked
 * before (so a sponsored operation whose paymaster reads only its own storage costs no query here).
 */
export async function assertNoSenderStorage(
  db: BundlerDb,
  scope: MempoolScope,
  op: { sender: string; entities: readonly string[] },
  storageAddresses: readonly string[],
): Promise<void> {
  const { sender, entities } = op;
  const others = storageAddresses.filter((address) => address !== sender && !entities.includes(address));
  const [address] = await liveSendersAmong(db, scope, others);
  if (address)
    throw rpcError(
      "BUNDLER_STORAGE_ACCESS_BANNED",
      `[STO-041] The validation used storage of ${address}, the sender of an operation in the mempool (ERC-7562)`,
      { rule: "STO-041", sender, address },
    );
}

/** The senders whose operations must wait: one of theirs used storage of another sender among `liveSenders`. */
export function sendersHeldBack(
  rows: Pick<UserOperationRow, "sender" | "storageAddresses">[],
  liveSenders: ReadonlySet<string>,
): Set<string> {
  const held = new Set<string>();
  for (const row of rows)
    if (row.storageAddresses?.some((address) => address !== row.sender && liveSenders.has(address)))
      held.add(row.sender);
  return held;
}

/** The pending rows a bundle may take now: those of senders held back by STO-041 wait (one query, only when a row
 * recorded foreign storage). */
export async function withoutSenderStorage<Row extends UserOperationRow>(
  db: BundlerDb,
  scope: MempoolScope,
  pending: Row[],
): Promise<Row[]> {
  const addresses = [...new Set(pending.flatMap((row) => row.storageAddresses ?? []))];
  if (addresses.length === 0) return pending;
  const held = sendersHeldBack(pending, await liveSendersAmong(db, scope, addresses));
  return held.size === 0 ? pending : pending.filter((row) => !held.has(row.sender));
}
