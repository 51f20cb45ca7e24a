// A graphile-worker task whose payload is checked against a zod schema before it runs, and typed from it. Whoever adds
// the task's job types its payload from the same schema (TaskPayload), so a wrong payload fails the typecheck there
// and the validation here.
import type { JobHelpers, Task } from "graphile-worker";
import { z } from "zod";

/** The task's run, given the payload as its schema parsed it. */
export type TaskRun<P> = (payload: P, helpers: JobHelpers) => void | Promise<void>;

/** A task (a graphile-worker `Task`) that carries the schema of its payload. */
export type DefinedTask<S extends z.ZodType = z.ZodType> = Task & { readonly schema: S };

/**
 * The payload a job of the task is added with: `T` is a defined task, a function that builds one (a plugin's
 * `xTask(ctx)`), or the schema itself.
 */
export type TaskPayload<T> = T extends z.ZodType
  ? z.input<T>
  : T extends DefinedTask<infer S>
    ? z.input<S>
    : T extends (...args: never[]) => DefinedTask<infer S>
      ? z.input<S>
      : never;

/** The payload of a task that reads none (a cron entry's run, a wake-up): any object, its fields ignored. */
export const NoPayload = z.object({});

/** A payload its task's schema refuses: names the task and each failing field. */
export class InvalidTaskPayload extends Error {
  constructor(
    readonly task: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    const fields = issues.map((issue) => `${issue.path.map(String).join(".") || "(payload)"}: ${issue.message}`);
    super(`Task ${task} refused its payload: ${fields.join("; ")}`);
    this.name = "InvalidTaskPayload";
  }
}

/** The job's payload as the schema parses it; throws InvalidTaskPayload when it does not. */
export function parseTaskPayload<S extends z.ZodType>(task: string, schema: S, payload: unknown): z.output<S> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new InvalidTaskPayload(task, parsed.error.issues);
  return parsed.data;
}

// A payload never becomes valid by waiting: the job is failed for good at once (no retries), its error kept on the row.
// graphile-worker 0.17 has no permanent-failure error, and its permanently_fail_jobs skips a job still locked (this one).
const FAIL_FOR_GOOD_SQL = "update graphile_worker._private_jobs set max_attempts = attempts where id = $1";

export function defineTask<S extends z.ZodType>(schema: S, run: TaskRun<z.output<S>>): DefinedTask<S> {
  const task: Task = async (payload, helpers) => {
    let parsed: z.output<S>;
    try {
      parsed = parseTaskPayload(helpers.job.task_identifier, schema, payload);
    } catch (error) {
      await helpers.query(FAIL_FOR_GOOD_SQL, [helpers.job.id]);
      throw error; // graphile-worker logs it (task, job id, message) and records it as the job's last error
    }
    await run(parsed, helpers);
  };
  return Object.assign(task, { schema });
}
