// Custody partitions and M-of-N activation: an organisation's keys sit in one partition that (with the pkcs11
// provider) signs only while active. Activation takes CUSTODY_ACTIVATION_QUORUM distinct custodians' approvals and
// lasts CUSTODY_ACTIVATION_SECONDS; the approvals of the current round are kept until the quorum is reached or the
// partition is deactivated. With the software provider a partition is always active.
import { sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { PlatformDb } from "../db/database.ts";

export type PartitionState = "inactive" | "activating" | "active" | "expired";

export interface ActivationSettings {
  quorum: number;
  seconds: number;
}

export interface PartitionView {
  id: string;
  organizationId: string;
  state: PartitionState;
  quorum: number;
  approvals: { userId: string; approvedAt: string }[];
  expiresAt: string | null;
}

interface PartitionRow {
  id: string;
  organizationId: string;
  activeUntil: Date | null;
}

export function partitionState(row: PartitionRow, approvals: number, now = new Date()): PartitionState {
  if (row.activeUntil && row.activeUntil > now) return "active";
  if (approvals > 0) return "activating";
  return row.activeUntil ? "expired" : "inactive";
}

/** The organisation's partition, created (inactive) on first use. */
export async function organizationPartition(db: PlatformDb, organizationId: string): Promise<PartitionRow> {
  await db
    .insertInto("custodyPartitions")
    .values({ id: uuidv7(), organizationId })
    .onConflict((oc) => oc.column("organizationId").doNothing())
    .execute();
  return db
    .selectFrom("custodyPartitions")
    .select(["id", "organizationId", "activeUntil"])
    .where("organizationId", "=", organizationId)
    .executeTakeFirstOrThrow();
}

export async function partitionView(
  db: PlatformDb,
  row: PartitionRow,
  settings: ActivationSettings,
): Promise<PartitionView> {
  const approvals = await db
    .selectFrom("custodyActivationApprovals")
    .select(["userId", "approvedAt"])
    .where("partitionId", "=", row.id)
    .orderBy("approvedAt")
    .execute();
  return {
    id: row.id,
    organizationId: row.organizationId,
    state: partitionState(row, approvals.length),
    quorum: settings.quorum,
    approvals: approvals.map((a) => ({ userId: a.userId, approvedAt: a.approvedAt.toISOString() })),
    expiresAt: row.activeUntil?.toISOString() ?? null,
  };
}

/**
 * One custodian's approval of the partition's activation (a repeat by the same custodian counts once). The approval
 * that reaches the quorum activates the partition for `settings.seconds` and closes the round. Returns whether it did.
 */
export async function approveActivation(
  db: PlatformDb,
  partitionId: string,
  userId: string,
  settings: ActivationSettings,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("custodyPartitions")
      .select(["id", "activeUntil"])
      .where("id", "=", partitionId)
      .forUpdate() // approvals of one partition one at a time: the quorum is counted once
      .executeTakeFirstOrThrow();
    if (row.activeUntil && row.activeUntil > new Date()) return false;
    await trx
      .insertInto("custodyActivationApprovals")
      .values({ partitionId, userId })
      .onConflict((oc) => oc.columns(["partitionId", "userId"]).doNothing())
      .execute();
    const { count } = await trx
      .selectFrom("custodyActivationApprovals")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("partitionId", "=", partitionId)
      .executeTakeFirstOrThrow();
    if (Number(count) < settings.quorum) return false;
    await trx
      .updateTable("custodyPartitions")
      .set({ activeUntil: sql<Date>`now() + make_interval(secs => ${settings.seconds})` })
      .where("id", "=", partitionId)
      .execute();
    await trx.deleteFrom("custodyActivationApprovals").where("partitionId", "=", partitionId).execute();
    return true;
  });
}

/** Ends the partition's activation and its pending round at once. */
export async function deactivatePartition(db: PlatformDb, partitionId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("custodyPartitions").set({ activeUntil: null }).where("id", "=", partitionId).execute();
    await trx.deleteFrom("custodyActivationApprovals").where("partitionId", "=", partitionId).execute();
  });
}
