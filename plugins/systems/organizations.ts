// Organisations (the CLI and the first-start bootstrap): a new organisation with its custody seed, and the request
// that deploys its system on a chain (this plugin's provision task).
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import type { Custody } from "../../host/custody/custody.ts";
import type { PlatformDb } from "../../host/db/database.ts";
import type { TaskPayload } from "../../host/worker/define-task.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";

/** The plugin's provision task (index.ts), by its full name. */
const PROVISION_TASK = "systems:provision";

/** The provision task's payload (provision.ts parses it with this schema). */
export const ProvisionPayload = z.object({ organizationId: z.string(), chainId: z.number().int() });

/**
 * A new organisation with its custody seed; its system on each of `chainIds` (its default network first) is deployed
 * by the platform's worker.
 */
export async function createOrganization(
  db: PlatformDb,
  custody: Custody,
  input: { name: string; defaultChainId: number; chainIds?: number[]; gatesReadiness?: boolean },
): Promise<{ organizationId: string; signer: string }> {
  const organizationId = uuidv7();
  // One transaction: an organisation is never seen (nor left by a crash) without its custody record or its systems.
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("organizations")
      .values({
        id: organizationId,
        name: input.name,
        defaultChainId: input.defaultChainId,
        gatesReadiness: input.gatesReadiness ?? false,
      })
      .execute();
    const signer = await custody.provisionOrganization(organizationId, trx);
    const others = (input.chainIds ?? []).filter((id) => id !== input.defaultChainId);
    for (const chainId of [input.defaultChainId, ...others])
      await requestSystemProvisioning(trx, organizationId, chainId);
    return { organizationId, signer };
  });
}

/**
 * Queues the deployment of the organisation's system on a chain. The job key folds repeats into one pending job,
 * and the per-organisation queue runs them one at a time (a key alone lets a second start while the first runs).
 */
export async function requestSystemProvisioning(db: PlatformDb, organizationId: string, chainId: number) {
  // Requested: its chain reads pending (CHAIN_NOT_READY) from now on, never SYSTEM_NOT_CREATED.
  await markSystemRequested(db, organizationId, chainId);
  await addKeyedJob(db, {
    task: PROVISION_TASK,
    payload: { organizationId, chainId } satisfies TaskPayload<typeof ProvisionPayload>,
    queueName: `provision:${organizationId}`,
    jobKey: `provision:${organizationId}:${chainId}`,
    maxAttempts: 5,
  });
}

/** Records that the organisation's system on the chain is requested (status pending), unless a row is there. */
export async function markSystemRequested(db: PlatformDb, organizationId: string, chainId: number) {
  await db
    .insertInto("organizationChains")
    .values({ organizationId, chainId, status: "pending", systemAddress: null, tokenFactoryAddress: null })
    .onConflict((oc) => oc.columns(["organizationId", "chainId"]).doNothing())
    .execute();
}
