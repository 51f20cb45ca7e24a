// ERC-7562's STO-041 among one EntryPoint's live operations on a chain: an operation may not use storage in a contract
// that is the sender of another live operation (that one's execution could change what its validation read). As the
// reference bundler reads the rule, any slot of such a contract counts. Judged on the contracts whose storage the
// operation's traced validation accessed (storage-check.ts; recorded with its row): at acceptance against the live
// senders (-32502), and again when a bundle is planned, where an operation whose storage became another live
// operation's sender since (a later or concurrent acceptance) waits with its sender's other operations; of senders
// waiting on one another, the first accepted goes.
import { rpcError } from "./rpc-error.ts";
import type { MempoolScope } from "./sender-entity-rule.ts";
import type { BundlerDb, UserOperationRow } from "./tables.ts";

/**
 * Of `addresses`, those that are the sender of a live operation (pending or in a bundle not yet mined), and
 * (`inFlight`) those with an operation in such a bundle.
 */
async function liveSendersAmong(db: BundlerDb, scope: MempoolScope, addresses: readonly string[]) {
  if (addresses.length === 0) return Object.assign(new Set<string>(), { inFlight: new Set<string>() });
  const rows = await db
    .selectFrom("bundlerUserOperations")
    .select(["sender", "status"])
    .distinct()
    .where("chainId", "=", scope.chainId)
    .where("entryPoint", "=", scope.entryPoint)
    .where("status", "in", ["pending", "submitted"])
    .where("sender", "in", [...addresses])
    .execute();
  const inFlight = new Set(rows.filter((row) => row.status === "submitted").map((row) => row.sender));
  return Object.assign(new Set(rows.map((row) => row.sender)), { inFlight });
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

/** A pending operation as STO-041's wait at bundling sees it. */
export type WaitingRow = Pick<UserOperationRow, "sender" | "storageAddresses"> & { createdAt: Date | string };

/**
 * The senders whose operations must wait: one of theirs used storage of another sender among `liveSenders` (until
 * that sender's operations are mined). Senders waiting on one another in a cycle (both accepted at once, before either
 * saw the other live) would wait for good: the first accepted of a cycle goes (the others, still waiting, are in no
 * bundle of its), and the rest follow it. One never stops waiting for a sender with an operation in a bundle not yet
 * mined (`inFlight`: that bundle could change what it read); the next of the cycle goes then. `rows`: the pending
 * operations with recorded storage, of the whole mempool.
 */
export function sendersHeldBack(
  rows: WaitingRow[],
  liveSenders: ReadonlySet<string>,
  inFlight: ReadonlySet<string> = new Set(),
): Set<string> {
  const waitsFor = new Map<string, Set<string>>();
  const firstAccepted = new Map<string, number>();
  for (const row of rows) {
    const at = new Date(row.createdAt).getTime();
    firstAccepted.set(row.sender, Math.min(firstAccepted.get(row.sender) ?? at, at));
    for (const address of row.storageAddresses ?? [])
      if (address !== row.sender && liveSenders.has(address))
        waitsFor.set(row.sender, (waitsFor.get(row.sender) ?? new Set()).add(address));
  }
  const reaches = (from: string, to: string) => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const at = stack.pop() as string;
      if (at === to) return true;
      if (seen.has(at)) continue;
      seen.add(at);
      stack.push(...(waitsFor.get(at) ?? []));
    }
    return false;
  };
  const byAcceptance = [...waitsFor.keys()].sort((a, b) => (firstAccepted.get(a) ?? 0) - (firstAccepted.get(b) ?? 0));
  for (const sender of byAcceptance) {
    const blockers = waitsFor.get(sender) as Set<string>;
    for (const blocker of [...blockers])
      if (!inFlight.has(blocker) && reaches(blocker, sender)) blockers.delete(blocker); // a cycle: go first
  }
  return new Set([...waitsFor].filter(([, blockers]) => blockers.size > 0).map(([sender]) => sender));
}

/** The pending rows a bundle may take now: those of senders held back by STO-041 wait (one query, only when a row
 * recorded foreign storage; one more, only when a sender must wait, for the mempool's other waiting operations). */
export async function withoutSenderStorage<Row extends UserOperationRow>(
  db: BundlerDb,
  scope: MempoolScope,
  pending: Row[],
): Promise<Row[]> {
  const addresses = [...new Set(pending.flatMap((row) => row.storageAddresses ?? []))];
  if (addresses.length === 0) return pending;
  const live = await liveSendersAmong(db, scope, addresses);
  const waits = (row: Row) => row.storageAddresses?.some((address) => address !== row.sender && live.has(address));
  if (!pending.some(waits)) return pending;
  const waiting = await db
    .selectFrom("bundlerUserOperations")
    .select(["sender", "storageAddresses", "createdAt"])
    .where("chainId", "=", scope.chainId)
    .where("entryPoint", "=", scope.entryPoint)
    .where("status", "=", "pending")
    .where("storageAddresses", "is not", null)
    .execute();
  const everyLive = await liveSendersAmong(db, scope, [
    ...new Set(waiting.flatMap((row) => row.storageAddresses ?? [])),
  ]);
  const held = sendersHeldBack(waiting, everyLive, everyLive.inFlight);
  return held.size === 0 ? pending : pending.filter((row) => !held.has(row.sender));
}
