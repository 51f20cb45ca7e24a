// The plugin's graphile-worker tasks, registered as `example-notes:<name>`. Each declares its payload's schema
// (defineTask): the payload is checked before the task runs, and whoever adds the job types it with TaskPayload.
import { z } from "zod";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { exampleDb } from "./tables.ts";

/** Enqueued by POST /api/v2/example/notes: counts the note's words and stores the count. */
export function countWordsTask(ctx: PluginContext) {
  return defineTask(z.object({ noteId: z.string() }), async ({ noteId }) => {
    const db = exampleDb(ctx.db.platform);
    const note = await db.selectFrom("exampleNotes").select("text").where("id", "=", noteId).executeTakeFirst();
    if (!note) return; // deleted meanwhile
    const wordCount = note.text.split(/\s+/).filter(Boolean).length;
    await db.updateTable("exampleNotes").set({ wordCount }).where("id", "=", noteId).execute();
  });
}

/** The cron entry's task (every minute, once across all worker processes): records how many notes exist. */
export function digestTask(ctx: PluginContext) {
  // graphile-worker's crontab adds `_cron` (the period's time) to the payload.
  return defineTask(z.object({ _cron: z.object({ ts: z.string() }) }), async ({ _cron }) => {
    const db = exampleDb(ctx.db.platform);
    const { notes } = await db
      .selectFrom("exampleNotes")
      .select((eb) => eb.fn.countAll<number>().as("notes"))
      .executeTakeFirstOrThrow();
    await db
      .insertInto("exampleNoteDigests")
      .values({ scheduledAt: _cron.ts, notes: Number(notes), pid: process.pid })
      .execute();
  });
}
