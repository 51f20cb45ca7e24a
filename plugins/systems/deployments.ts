// An organisation's deployment, as rows: the request creates the organisation with its owner and the deployment with
// its steps in one transaction; the deploy task moves the steps on; a repeat with the same key resumes a failed one.
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { DEPLOYMENT_STEPS } from "./deployment-steps.ts";
import { markSystemRequested } from "./organizations.ts";
import { type DeploymentRow, type DeploymentStepRow, type StepStatus, systemsDb } from "./tables.ts";

/** The plugin's deploy task, by its full name (index.ts). */
export const DEPLOY_TASK = "systems:deploy-organization";

/** The deploy task's payload (deploy-task.ts parses it with this schema). */
export const DeployPayload = z.object({ deploymentId: z.string() });

export interface DeploymentTree {
  deployment: DeploymentRow;
  steps: DeploymentStepRow[];
}

export interface NewDeployment {
  name: string;
  chainId: number;
  userId: string;
  idempotencyKey: string;
}

const UNIQUE_VIOLATION = "23505";

/** The deployment the user started with this key, if any. */
export async function deploymentByKey(db: PlatformDb, userId: string, key: string) {
  return systemsDb(db)
    .selectFrom("organizationDeployments")
    .selectAll()
    .where("createdBy", "=", userId)
    .where("idempotencyKey", "=", key)
    .executeTakeFirst();
}

/**
 * The organisation (the user its owner) and its deployment, or the deployment this user's key already started (a
 * repeat asking for another name or chain is 409 IDEMPOTENCY_KEY_REUSED). `created` says which.
 */
export async function startDeployment(
  db: PlatformDb,
  input: NewDeployment,
): Promise<{ deployment: DeploymentRow; created: boolean }> {
  const attached = async () => {
    const existing = await deploymentByKey(db, input.userId, input.idempotencyKey);
    if (!existing) return undefined;
    if (existing.name !== input.name || existing.chainId !== input.chainId) {
      throw new ApiError("IDEMPOTENCY_KEY_REUSED", {
        message: "This Idempotency-Key started the deployment of another organisation",
        details: { organizationId: existing.organizationId, deploymentId: existing.id },
      });
    }
    return { deployment: existing, created: false };
  };
  const earlier = await attached();
  if (earlier) return earlier;
  const organizationId = uuidv7();
  const deploymentId = uuidv7();
  try {
    const deployment = await systemsDb(db)
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto("organizations")
          .values({ id: organizationId, name: input.name, defaultChainId: input.chainId })
          .execute();
        await trx.insertInto("memberships").values({ organizationId, userId: input.userId, role: "owner" }).execute();
        // Its system is requested with it: the chain reads pending (CHAIN_NOT_READY) while the steps run.
        await markSystemRequested(trx as unknown as PlatformDb, organizationId, input.chainId); // a core table
        const row = await trx
          .insertInto("organizationDeployments")
          .values({
            id: deploymentId,
            organizationId,
            chainId: input.chainId,
            name: input.name,
            createdBy: input.userId,
            idempotencyKey: input.idempotencyKey,
            status: "running",
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("organizationDeploymentSteps")
          .values(
            DEPLOYMENT_STEPS.map((step, position) => ({
              deploymentId,
              nodeId: step.nodeId,
              parentId: step.parentId,
              position,
              name: step.name,
              status: step.nodeId === "organization" ? ("succeeded" as const) : ("pending" as const),
              detail: JSON.stringify(
                step.nodeId === "organization" ? { organizationId, name: input.name, ownerUserId: input.userId } : {},
              ),
            })),
          )
          .execute();
        return row;
      });
    return { deployment, created: true };
  } catch (error) {
    // The same key sent twice at once: the other request created it.
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      const other = await attached();
      if (other) return other;
    }
    throw error;
  }
}

/** A failed deployment runs again from its failed step; false when it was not failed. */
export async function resumeDeployment(db: PlatformDb, deploymentId: string): Promise<boolean> {
  return systemsDb(db)
    .transaction()
    .execute(async (trx) => {
      const resumed = await trx
        .updateTable("organizationDeployments")
        .set({ status: "running", updatedAt: new Date() })
        .where("id", "=", deploymentId)
        .where("status", "=", "failed")
        .executeTakeFirst();
      if (!resumed.numUpdatedRows) return false;
      await trx
        .updateTable("organizationDeploymentSteps")
        .set({ status: "pending", wireError: null, updatedAt: new Date() })
        .where("deploymentId", "=", deploymentId)
        .where("status", "in", ["failed", "running"])
        .execute();
      return true;
    });
}

/** The deployment and its steps in tree order, when it belongs to the organisation. */
export async function deploymentTree(
  db: PlatformDb,
  deploymentId: string,
  organizationId: string,
): Promise<DeploymentTree | undefined> {
  const sdb = systemsDb(db);
  const deployment = await sdb
    .selectFrom("organizationDeployments")
    .selectAll()
    .where("id", "=", deploymentId)
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  if (!deployment) return undefined;
  const steps = await sdb
    .selectFrom("organizationDeploymentSteps")
    .selectAll()
    .where("deploymentId", "=", deploymentId)
    .orderBy("position")
    .execute();
  return { deployment, steps };
}

export async function setStep(
  db: PlatformDb,
  deploymentId: string,
  nodeId: string,
  change: { status: StepStatus; detail?: Record<string, unknown>; wireError?: Record<string, unknown> | null },
): Promise<void> {
  await systemsDb(db)
    .updateTable("organizationDeploymentSteps")
    .set({
      status: change.status,
      ...(change.detail ? { detail: JSON.stringify(change.detail) } : {}),
      ...(change.wireError !== undefined
        ? { wireError: change.wireError === null ? null : JSON.stringify(change.wireError) }
        : {}),
      updatedAt: new Date(),
    })
    .where("deploymentId", "=", deploymentId)
    .where("nodeId", "=", nodeId)
    .execute();
}

export async function finishDeployment(db: PlatformDb, deploymentId: string, status: "succeeded" | "failed") {
  await systemsDb(db)
    .updateTable("organizationDeployments")
    .set({ status, updatedAt: new Date() })
    .where("id", "=", deploymentId)
    .where("status", "=", "running")
    .execute();
}
