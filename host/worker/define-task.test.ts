import type { JobHelpers } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CONFIRM_TASK, confirmJobSpec } from "../mutations/service.ts";
import type { createConfirmTransactionTask } from "./confirm-transaction.ts";
import { defineTask, InvalidTaskPayload, NoPayload, type TaskPayload } from "./define-task.ts";
import type { KeyedJob } from "./keyed-jobs.ts";

/** What a run of `task` sees of graphile-worker: its job, and the statements it sends (the failing one, here). */
function jobOf(task: string) {
  const statements: { text: string; values: unknown[] }[] = [];
  const helpers = {
    job: { id: "42", task_identifier: task },
    query: async (text: string, values: unknown[]) => {
      statements.push({ text, values });
      return { rows: [] };
    },
  } as unknown as JobHelpers;
  return { helpers, statements };
}

const Transfer = z.object({ chainId: z.number().int(), to: z.string(), memo: z.string().optional() });

describe("defineTask", () => {
  it("gives the task its payload as the schema parsed it", async () => {
    const seen: TaskPayload<typeof Transfer>[] = [];
    const task = defineTask(Transfer, (payload) => {
      const chainId: number = payload.chainId; // typed from the schema
      seen.push({ ...payload, chainId });
    });
    const { helpers, statements } = jobOf("test:transfer");
    await task({ chainId: 1, to: "0xab", _cron: { ts: "now" } }, helpers);
    expect(seen).toEqual([{ chainId: 1, to: "0xab" }]); // fields the schema does not know are left out
    expect(statements).toEqual([]);
    expect(task.schema).toBe(Transfer);
  });

  it("refuses an invalid payload naming the task and each failing field, and fails the job for good", async () => {
    let ran = false;
    const task = defineTask(Transfer, () => {
      ran = true;
    });
    const { helpers, statements } = jobOf("test:transfer");
    const refused = task({ chainId: "1", memo: 7 }, helpers);
    await expect(refused).rejects.toBeInstanceOf(InvalidTaskPayload);
    await expect(refused).rejects.toThrow(/^Task test:transfer refused its payload: chainId: .*; to: .*; memo: /);
    expect(ran).toBe(false);
    // No retries: the job's attempts are used up at once, so it stays failed with this error.
    expect(statements).toEqual([{ text: expect.stringContaining("set max_attempts = attempts"), values: ["42"] }]);
  });

  it("refuses a payload that is not an object, and lets a task that reads none take any object", async () => {
    const task = defineTask(NoPayload, () => {});
    await expect(task(null, jobOf("test:sweep").helpers)).rejects.toThrow(
      "Task test:sweep refused its payload: (payload)",
    );
    await expect(task({ _cron: { ts: "now" } }, jobOf("test:sweep").helpers)).resolves.toBeUndefined();
  });

  it("types the payload where the job is added (a wrong one fails the typecheck)", () => {
    const transfer = defineTask(Transfer, () => {});
    const makeTask = () => transfer;
    const right: TaskPayload<typeof transfer> = { chainId: 1, to: "0xab" };
    // @ts-expect-error chainId is a number
    const wrongType: TaskPayload<typeof transfer> = { chainId: "1", to: "0xab" };
    // @ts-expect-error `to` is required (typed through the task's factory too)
    const missing: TaskPayload<typeof makeTask> = { chainId: 1 };
    const job: KeyedJob<TaskPayload<typeof createConfirmTransactionTask>> = {
      task: CONFIRM_TASK,
      // @ts-expect-error the signer's runs name `fromAddress`, not `from`
      payload: { chainId: 1, from: "0xab" },
    };
    const built: KeyedJob<TaskPayload<typeof createConfirmTransactionTask>> = confirmJobSpec(1, "0xAB");
    expect([right, wrongType, missing, job, built.payload]).toHaveLength(5);
    expect(built.payload).toEqual({ chainId: 1, fromAddress: "0xab" });
  });
});
