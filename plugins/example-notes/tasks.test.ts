import type { JobHelpers } from "graphile-worker";
import { describe, expect, it } from "vitest";
import type { PluginContext } from "../../host/plugin.ts";
import type { TaskPayload } from "../../host/worker/define-task.ts";
import { countWordsTask, digestTask } from "./tasks.ts";

// The payload is checked before the task touches anything: a context with nothing in it is enough to see it refused.
const ctx = {} as PluginContext;
const helpers = (task: string) =>
  ({ job: { id: "1", task_identifier: task }, query: async () => ({ rows: [] }) }) as unknown as JobHelpers;

describe("the example plugin's tasks", () => {
  it("refuse a payload their schema does not accept, naming the field", async () => {
    await expect(countWordsTask(ctx)({ noteId: 42 }, helpers("example-notes:count-words"))).rejects.toThrow(
      "Task example-notes:count-words refused its payload: noteId: Invalid input: expected string, received number",
    );
    await expect(digestTask(ctx)({}, helpers("example-notes:digest"))).rejects.toThrow(
      "Task example-notes:digest refused its payload: _cron:",
    );
  });

  it("type the payload where the job is added, as the route adds it", () => {
    const addJob: PluginContext["addJob"] = async () => {};
    void addJob("example-notes:count-words", { noteId: "n1" } satisfies TaskPayload<typeof countWordsTask>);
    // @ts-expect-error the note's id is a string
    void addJob("example-notes:count-words", { noteId: 1 } satisfies TaskPayload<typeof countWordsTask>);
    // @ts-expect-error the payload names the note
    void addJob("example-notes:count-words", { id: "n1" } satisfies TaskPayload<typeof countWordsTask>);
  });
});
