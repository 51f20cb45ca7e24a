// Queues a write: one statement inserts the request and folds it into its sender's pending send run, or adds one, so
// that no request is ever without a run to pick it up and concurrent submissions of a sender do not queue on the
// run's job row.
import type { Insertable } from "kysely";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow, TransactionRequestsTable } from "../db/platform-types.ts";
import { addKeyedJob, type FoldableJob, foldIntoKeyedJobSql } from "../worker/keyed-jobs.ts";

/** The queued request; undefined when its sender already used its idempotency key on its chain (nothing inserted). */
export async function queueRequest(
  db: PlatformDb,
  values: Insertable<TransactionRequestsTable>,
  job: FoldableJob<object>,
): Promise<TransactionRequestRow | undefined> {
  const row = await db
    .with("inserted", (q) =>
      q
        .insertInto("transactionRequests")
        .values(values)
        .onConflict((oc) =>
          oc.columns(["fromAddress", "chainId", "idempotencyKey"]).where("idempotencyKey", "is not", null).doNothing(),
        )
        .returningAll(),
    )
    .selectFrom("inserted")
    .selectAll()
    .select(foldIntoKeyedJobSql(job).as("sendJobId"))
    .executeTakeFirst();
  if (!row) return undefined;
  const { sendJobId, ...request } = row;
  if (sendJobId === null) await addKeyedJob(db, job); // a run took the job before this request was committed
  return request as TransactionRequestRow;
}
