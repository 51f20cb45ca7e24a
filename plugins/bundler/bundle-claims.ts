// A bundle's hold on its operations, exactly once under a retried or crashed run: the operations are claimed
// (pending -> submitted, with the bundle's id and executor) before its chain write is queued, and that write carries
// `bundle:<id>` as idempotency key. A run that finds claimed operations without a write (its predecessor crashed in
// between) finds the write by that key or queues it, never a second one; no other bundle can take them meanwhile.
import type { BundlerDb, UserOperationRow } from "./tables.ts";

export const bundleIdempotencyKey = (bundleId: string) => `bundle:${bundleId}`;

/**
 * Claims the bundle's rows still pending; returns those it holds. A sender's operations behind one it could not
 * claim (replaced meanwhile) cannot run without it: they are released again.
 */
export async function claimBundle<Row extends UserOperationRow>(
  db: BundlerDb,
  bundle: { bundleId: string; executor: string; rows: Row[] },
): Promise<Row[]> {
  const claimed = await db
    .updateTable("bundlerUserOperations")
    .set({ status: "submitted", bundleId: bundle.bundleId, executor: bundle.executor, updatedAt: new Date() })
    .where(
      "userOpHash",
      "in",
      bundle.rows.map((row) => row.userOpHash),
    )
    .where("status", "=", "pending")
    .returning("userOpHash")
    .execute();
  const { kept, released } = keptAfterClaim(bundle.rows, new Set(claimed.map((row) => row.userOpHash)));
  await releaseFromBundle(
    db,
    bundle.bundleId,
    released.map((row) => row.userOpHash),
  );
  return kept;
}

/**
 * Of a bundle's rows (each sender's in nonce order), those it holds up to each sender's first one it could not claim
 * (kept), and the ones it claimed behind that (released).
 */
export function keptAfterClaim<Row extends Pick<UserOperationRow, "userOpHash" | "sender">>(
  rows: Row[],
  held: ReadonlySet<string>,
) {
  const broken = new Set<string>();
  const kept = rows.filter((row) => {
    if (!held.has(row.userOpHash)) broken.add(row.sender);
    return held.has(row.userOpHash) && !broken.has(row.sender);
  });
  const released = rows.filter((row) => held.has(row.userOpHash) && !kept.includes(row));
  return { kept, released };
}

/** Gives the bundle's claimed operations back to the mempool (pending again, for a later run). */
export async function releaseFromBundle(db: BundlerDb, bundleId: string, hashes: string[]) {
  if (hashes.length === 0) return;
  await db
    .updateTable("bundlerUserOperations")
    .set({ status: "pending", bundleId: null, executor: null, updatedAt: new Date() })
    .where("userOpHash", "in", hashes)
    .where("bundleId", "=", bundleId)
    .where("status", "=", "submitted")
    .where("transactionRequestId", "is", null)
    .execute();
}

/** Marks claimed operations the EntryPoint refused at the bundle's check failed. */
export async function failInBundle(db: BundlerDb, bundleId: string, hashes: string[], reason: string) {
  await db
    .updateTable("bundlerUserOperations")
    .set({ status: "failed", failureReason: reason, updatedAt: new Date() })
    .where("userOpHash", "in", hashes)
    .where("bundleId", "=", bundleId)
    .where("status", "=", "submitted")
    .execute();
}

/** Points the bundle's operations at its chain write (the write's hash is the bundle's transaction hash): those still
 * in it, not those its check refused (failed, which keep the bundle's id but are not in its transaction). */
export async function linkBundle(db: BundlerDb, bundleId: string, transactionRequestId: string) {
  await linkBundleQuery(db, bundleId, transactionRequestId).execute();
}

/** linkBundle's statement, unsent (its plan is checked in test/bundler.test.ts: by the bundle_id index, 0013). */
export const linkBundleQuery = (db: BundlerDb, bundleId: string, transactionRequestId: string) =>
  db
    .updateTable("bundlerUserOperations")
    .set({ transactionRequestId, updatedAt: new Date() })
    .where("bundleId", "=", bundleId)
    .where("status", "=", "submitted")
    .where("transactionRequestId", "is", null);

/** The chain write an earlier run queued for the bundle, if it got that far. */
export async function queuedBundleWrite(db: BundlerDb, chainId: number, executor: string, bundleId: string) {
  const row = await db
    .selectFrom("transactionRequests")
    .select("id")
    .where("fromAddress", "=", executor)
    .where("chainId", "=", chainId)
    .where("idempotencyKey", "=", bundleIdempotencyKey(bundleId))
    .executeTakeFirst();
  return row?.id;
}
