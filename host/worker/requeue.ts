// Sends a write again from scratch (a new signature and nonce). Only once its previous bytes can no longer be
// mined (their nonce is taken), so the write still happens at most once.
import type { WorkerUtils } from "graphile-worker";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { SEND_TASK, sendJobSpec } from "../mutations/service.ts";
import { updateRequest } from "./deps.ts";

type AddJob = WorkerUtils["addJob"];

export async function requeueWithNewNonce(db: PlatformDb, addJob: AddJob, row: TransactionRequestRow, reason: string) {
  const attempts = row.attempts + 1;
  await updateRequest(db, row.id, {
    status: "QUEUED",
    subStatus: reason,
    rawTransaction: null,
    transactionHash: null,
    nonce: null,
    attempts,
  });
  const job = sendJobSpec(row.chainId, row.fromAddress);
  await addJob(SEND_TASK, job.payload, { queueName: job.queueName, jobKey: job.jobKey, maxAttempts: 25 });
}
