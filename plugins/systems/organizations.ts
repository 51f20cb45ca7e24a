// Organisations (the CLI and the first-start bootstrap): a new organisation with its custody seed, and the request
// that deploys its system on a chain (this plugin's provision task).
import { type Kysely, sql } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { Custody } from "../../host/custody/custody.ts";
import type { PlatformDb } from "../../host/db/database.ts";

/** The plugin's provision task (index.ts), by its full name. */
const PROVISION_TASK = "systems:provision";

/** A new organisation with its custody seed; its system on the chain is deployed by the platform's worker. */
export async function createOrganization(
  db: PlatformDb,
  custody: Custody,
  input: { name: string; defaultChainId: number },
): Promise<{ organizationId: string; signer: string }> {
  const organizationId = uuidv7();
  await db
    .insertInto("organizations")
    .values({ id: organizationId, name: input.name, defaultChainId: input.defaultChainId })
    .execute();
  const signer = await custody.provisionOrganization(organizationId);
  await requestSystemProvisioning(db, organizationId, input.defaultChainId);
  return { organizationId, signer };
}

/**
 * Queues the deployment of the organisation's system on a chain. The job key folds repeats into one pending job,
 * and the per-organisation queue runs them one at a time (a key alone lets a second start while the first runs).
 */
export async function requestSystemProvisioning(db: PlatformDb, organizationId: string, chainId: number) {
  await sql`select graphile_worker.add_job(${PROVISION_TASK}, ${JSON.stringify({ organizationId, chainId })}::json,
    queue_name => ${`provision:${organizationId}`}, job_key => ${`provision:${organizationId}:${chainId}`},
    max_attempts => 5)`.execute(db as unknown as Kysely<unknown>);
}
