// Every queued write has a send run to pick it up: when a worker locks the signer's send job inside graphile-worker's
// add_job (between its two statements) the submission adds the run again, and reconciliation restarts the runs of
// signers whose writes wait without one.
import { sql } from "kysely";
import pg from "pg";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabases } from "../host/db/database.ts";
import { sendJobSpec } from "../host/mutations/service.ts";
import { keyedJobLockSql } from "../host/worker/keyed-job-barrier.ts";
import { foldIntoKeyedJobSql } from "../host/worker/keyed-jobs.ts";
import { restartStrandedRuns } from "../host/worker/stranded-runs.ts";
import { clearOfMinuteTick } from "./support/minute-tick.ts";
import {
  bootStack,
  createDepositToken,
  json,
  platformDbUrl,
  signerOf,
  type TestStack,
  waitForTerminal,
} from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("a signer's send run", () => {
  let stack: TestStack;
  let db: pg.Client;
  let token: Address;
  let signer: string;
  let chainId: number;

  const mint = (amount: string, headers: Record<string, string> = {}) =>
    stack.api(`/api/v2/tokens/${token}/mint`, {
      method: "POST",
      headers,
      body: JSON.stringify({ recipients: [ALICE], amounts: [amount] }),
    });

  beforeAll(async () => {
    stack = await bootStack();
    db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
    token = await createDepositToken(stack, "Runs", "RUNS");
    signer = await signerOf(db, stack.platform.credentials.organizationId);
    chainId = stack.platform.credentials.chainId;
  }, 180_000);
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it("is added again when a worker locks the job inside the submission's add_job", async () => {
    // A second connection adds the signer's send job and locks it as a worker would, uncommitted: the submission's
    // add_job finds no locked job to set aside, then waits on the key, and sees the job locked once this commits.
    // The lock is held by no live worker and never expires, so only a new run can send the write.
    const job = sendJobSpec(chainId, signer);
    const worker = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await worker.connect();
    try {
      await worker.query("begin");
      await worker.query(
        "select graphile_worker.add_job($1, $2::json, queue_name => $3, job_key => $4, run_at => now() + interval '1 hour')",
        [job.task, JSON.stringify(job.payload), job.queueName, job.jobKey],
      );
      await worker.query(
        "update graphile_worker._private_jobs set locked_at = now() + interval '1 hour', locked_by = 'a-stalled-worker' where key = $1",
        [job.jobKey],
      );
      const submitted = mint("7", { prefer: "wait=30" });
      const deadline = Date.now() + 30_000;
      for (;;) {
        const blocked = await db.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%fold_into_keyed_job%'",
        );
        if (blocked.rows[0].n > 0) break;
        if (Date.now() > deadline) throw new Error("the submission never waited on the send job's key");
        await new Promise((r) => setTimeout(r, 20));
      }
      await worker.query("commit");
      const res = await submitted;
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.data.status).toBe("COMPLETED");
    } finally {
      await worker.query("rollback").catch(() => {});
      await worker.query("delete from graphile_worker._private_jobs where locked_by = 'a-stalled-worker'");
      await worker.end();
    }
  }, 60_000);

  it("folds concurrent submissions into one pending run without touching its row; a taken run gets a new one", async () => {
    // A task no worker runs, so its jobs stay where the calls leave them.
    const probe = { task: "test:fold-probe", payload: {}, queueName: "test:fold-probe", jobKey: "test:fold-probe" };
    const databases = openDatabases(platformDbUrl(stack.env), "ledger", 2);
    const fold = async () =>
      (await sql<{ id: string }>`select ${foldIntoKeyedJobSql(probe)} as id`.execute(databases.platform)).rows[0].id;
    const jobRow = async (id: string) =>
      (await db.query("select key, revision, updated_at from graphile_worker._private_jobs where id = $1", [id]))
        .rows[0];
    try {
      const first = await fold();
      const before = await jobRow(first);
      expect(await Promise.all(Array.from({ length: 20 }, fold))).toEqual(Array(20).fill(first));
      expect(await jobRow(first)).toEqual(before); // folded: the row was not updated (nor locked) by any of them

      // A worker took the job: the next submission needs a run of its own.
      await db.query(
        "update graphile_worker._private_jobs set locked_at = now(), locked_by = 'a-worker' where id = $1",
        [first],
      );
      const second = await fold();
      expect(second).not.toBe(first);
      expect((await jobRow(first)).key).toBeNull();

      // A run of the key starts only once a submission that folded into its job has committed.
      const submission = new pg.Client({ connectionString: platformDbUrl(stack.env) });
      const run = new pg.Client({ connectionString: platformDbUrl(stack.env) });
      await Promise.all([submission.connect(), run.connect()]);
      try {
        await submission.query("begin");
        const folding = sql<{ id: string }>`select ${foldIntoKeyedJobSql(probe)} as id`.compile(databases.platform);
        const folded = await submission.query(folding.sql, [...folding.parameters]);
        expect(folded.rows[0].id).toBe(second);
        let started = false;
        const barrier = run.query(keyedJobLockSql, [probe.jobKey]).then(() => {
          started = true;
        });
        await new Promise((r) => setTimeout(r, 500));
        expect(started).toBe(false);
        await submission.query("commit");
        await barrier;
        expect(started).toBe(true);
      } finally {
        await submission.end();
        await run.end();
      }
    } finally {
      await db.query("delete from graphile_worker._private_jobs where key = $1 or locked_by = 'a-worker'", [
        probe.jobKey,
      ]);
      await databases.close();
    }
  }, 60_000);

  it("is restarted by reconciliation for a write that waits without one", async () => {
    // A write committed without its run (as after a crash between the two): a copy of a finished mint, queued anew.
    // Only the call below may restart its run, not reconciliation's own crontab.
    await clearOfMinuteTick(8);
    const res = await mint("5", { prefer: "wait=30" });
    const done = await json(res);
    expect(done.data.status).toBe("COMPLETED");
    const { rows } = await db.query(
      `insert into platform.transaction_requests
         (id, organization_id, kind, status, chain_id, from_address, to_address, data, value, created_by, description,
          executor, wallet_selection, created_at, updated_at)
       select gen_random_uuid(), organization_id, kind, 'QUEUED', chain_id, from_address, to_address, data, value,
              created_by, description, executor, wallet_selection, now() - interval '2 minutes', now() - interval '2 minutes'
         from platform.transaction_requests where id = $1
       returning id`,
      [done.data.transactionId],
    );
    const stranded = rows[0].id as string;
    await new Promise((r) => setTimeout(r, 2_000));
    expect(
      (await db.query("select status from platform.transaction_requests where id = $1", [stranded])).rows[0],
    ).toEqual({ status: "QUEUED" });

    const databases = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    try {
      expect(await restartStrandedRuns(databases.platform, chainId)).toBe(1);
    } finally {
      await databases.close();
    }
    const final = await waitForTerminal(stack, `/api/v2/transaction-requests/${stranded}`);
    expect(final.status).toBe("COMPLETED");
  }, 90_000);
});
