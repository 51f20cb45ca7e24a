// Where custody partitions hold writes back (pkcs11 custody only; software custody always signs). At submission: a
// key asked for a kind outside its classification is 409 HSM_MOFN_QUORUM_CLASSIFICATION_FAILED, and a partition whose
// activation expired is 408 HSM_MOFN_QUORUM_EXPIRED, before anything is queued or signed. At signing: a write of a
// partition not active waits QUEUED (AWAITING_CUSTODY_ACTIVATION) until CUSTODY_ACTIVATION_WAIT_SECONDS after its
// submission, then fails with HSM_MOFN_QUORUM_EXPIRED.

import type { Hex } from "viem";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";
import { policyRefusal } from "./classification.ts";
import type { Custody } from "./custody.ts";
import { type PartitionState, partitionState } from "./partitions.ts";

export const AWAITING_CUSTODY_ACTIVATION = "AWAITING_CUSTODY_ACTIVATION";
export const QUORUM_EXPIRED = "HSM_MOFN_QUORUM_EXPIRED";

/** The state of the organisation's custody partition (its provider aside), in one read: every HSM write asks. */
export async function stateOf(db: PlatformDb, organizationId: string): Promise<PartitionState> {
  const partition = await db
    .selectFrom("custodyPartitions")
    .select((eb) => [
      "id",
      "organizationId",
      "activeUntil",
      eb
        .selectFrom("custodyActivationApprovals")
        .select(eb.fn.countAll<string>().as("count"))
        .whereRef("partitionId", "=", "custodyPartitions.id")
        .as("approvals"),
    ])
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  // None yet: created inactive on first use (partitions.ts).
  return partition ? partitionState(partition, Number(partition.approvals)) : "inactive";
}

export async function assertCustodyMaySign(
  db: PlatformDb,
  custody: Custody,
  input: { organizationId: string; from: string; kind: string; data: Hex; value: bigint },
): Promise<void> {
  if ((await custody.keyProviderOf(input.organizationId, input.from)) !== "pkcs11") return;
  // Both reads at once: every write of an HSM key pays them before it is queued.
  const [wallet, state] = await Promise.all([
    db
      .selectFrom("wallets")
      .select(["custodyClassification", "custodyMaxValue"])
      .where("organizationId", "=", input.organizationId)
      .where("address", "=", input.from.toLowerCase())
      .executeTakeFirst(),
    stateOf(db, input.organizationId),
  ]);
  const refused =
    wallet && policyRefusal({ classification: wallet.custodyClassification, maxValue: wallet.custodyMaxValue }, input);
  if (refused)
    throw new ApiError("HSM_MOFN_QUORUM_CLASSIFICATION_FAILED", {
      details: {
        address: input.from,
        classification: wallet.custodyClassification,
        kind: input.kind,
        ...(refused === "value" ? { maxValue: String(wallet.custodyMaxValue) } : {}),
      },
    });
  if (state === "expired") throw new ApiError(QUORUM_EXPIRED, { details: { organizationId: input.organizationId } });
}

/**
 * Of a signer's unsigned writes, those its partition holds back: marked AWAITING_CUSTODY_ACTIVATION, or FAILED with
 * HSM_MOFN_QUORUM_EXPIRED once they waited `waitSeconds`. Returns the held ids and when the next wait ends.
 */
export async function holdUntilActive(
  db: PlatformDb,
  custody: Custody,
  rows: TransactionRequestRow[],
  waitSeconds: number,
): Promise<{ held: Set<string>; nextDeadline?: Date }> {
  const held = new Set<string>();
  let nextDeadline: Date | undefined;
  // Writes of keys in the HSM, by organisation (a key moved from software custody signs its own writes as before).
  const byOrganization = new Map<string, TransactionRequestRow[]>();
  for (const row of rows) {
    if ((await custody.keyProviderOf(row.organizationId, row.fromAddress)) !== "pkcs11") continue;
    byOrganization.set(row.organizationId, [...(byOrganization.get(row.organizationId) ?? []), row]);
  }
  for (const [organizationId, hsmRows] of byOrganization) {
    if ((await stateOf(db, organizationId)) === "active") continue;
    for (const row of hsmRows) {
      held.add(row.id);
      const deadline = new Date(row.createdAt.getTime() + waitSeconds * 1000);
      const expired = deadline <= new Date();
      if (!expired && (!nextDeadline || deadline < nextDeadline)) nextDeadline = deadline;
      await db
        .updateTable("transactionRequests")
        .set(
          expired
            ? {
                status: "FAILED",
                subStatus: QUORUM_EXPIRED,
                errorMessage: "The custody partition was not activated in time",
                updatedAt: new Date(),
              }
            : { subStatus: AWAITING_CUSTODY_ACTIVATION, updatedAt: new Date() },
        )
        .where("id", "=", row.id)
        .where("status", "=", "QUEUED")
        .where("rawTransaction", "is", null)
        .execute();
    }
  }
  return { held, nextDeadline };
}
