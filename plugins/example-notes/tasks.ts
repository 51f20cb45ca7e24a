// The plugin's graphile-worker tasks, registered as `example-notes:<name>`.
import type { Task } from "graphile-worker";
import type { PluginContext } from "../../host/plugin.ts";
import { exampleDb } from "./tables.ts";

/** Enqueued by POST /api/v2/example/notes: counts the note's words and stores the count. */
export function countWordsTask(ctx: PluginContext): Task {
  return async (payload) => {
    const { noteId } = payload as { noteId: string };
    const db = exampleDb(ctx.db.platform);
    const note = await db.selectFrom("exampleNotes").select("text").where("id", "=", noteId).executeTakeFirst();
    if (!note) return; // deleted meanwhile
    const wordCount = note.text.split(/\s+/).filter(Boolean).length;
    await db.updateTable("exampleNotes").set({ wordCount }).where("id", "=", noteId).execute();
  };
}

/** The cron entry's task (every minute, once across all worker processes): records how many notes exist. */
export function digestTask(ctx: PluginContext): Task {
  return async (payload) => {
    const { _cron } = payload as { _cron: { ts: string } };
    const db = exampleDb(ctx.db.platform);
    const { notes } = await db
      .selectFrom("exampleNotes")
      .select((eb) => eb.fn.countAll<number>().as("notes"))
      .executeTakeFirstOrThrow();
    await db
      .insertInto("exampleNoteDigests")
      .values({ scheduledAt: _cron.ts, notes: Number(notes), pid: process.pid })
      .execute();
  };
}
