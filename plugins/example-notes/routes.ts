// POST /api/v2/example/notes (writes the note and its event in one transaction, then enqueues the word count) and
// the reads: the list (collection query) and one note (404 EXAMPLE_NOTE_NOT_FOUND).
import { createRoute, z } from "@hono/zod-openapi";
import { v7 as uuidv7 } from "uuid";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { collectionRoute, parseCollectionQuery, runCollection } from "../../host/collections/index.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { collection, single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { TaskPayload } from "../../host/worker/define-task.ts";
import { NOTE_COLLECTION } from "./collections.ts";
import { NoteBodySchema, NoteIdParams, NoteSchema } from "./schemas.ts";
import { type ExampleNoteRow, exampleDb } from "./tables.ts";
import type { countWordsTask } from "./tasks.ts";

const toNote = (row: ExampleNoteRow) => ({
  id: row.id,
  text: row.text,
  wordCount: row.wordCount,
  createdBy: row.createdBy,
  createdAt: new Date(row.createdAt).toISOString(),
});

const createNote = createRoute({
  method: "post",
  path: "/api/v2/example/notes",
  tags: ["example"],
  summary: "Create a note (the example plugin)",
  middleware: [requirePermission("exampleNote:write")],
  request: { body: jsonBody(NoteBodySchema) },
  responses: { 201: jsonResponse(z.object({ data: NoteSchema, links: linksSelf }), "Created"), ...errorResponses },
});

const listNotes = collectionRoute({
  path: "/api/v2/example/notes",
  tags: ["example"],
  summary: "List the organisation's notes (the example plugin)",
  permission: "exampleNote:read",
  collection: NOTE_COLLECTION,
  item: NoteSchema,
  listed: "The notes",
});

const getNote = createRoute({
  method: "get",
  path: "/api/v2/example/notes/{id}",
  tags: ["example"],
  summary: "Read a note (the example plugin)",
  middleware: [requirePermission("exampleNote:read")],
  request: { params: NoteIdParams },
  responses: { 200: jsonResponse(z.object({ data: NoteSchema, links: linksSelf }), "The note"), ...errorResponses },
});

export function noteRoutes(app: App, ctx: PluginContext) {
  const db = exampleDb(ctx.db.platform);

  app.openapi(createNote, async (c) => {
    const { organizationId, userId } = c.get("principal");
    const { text } = c.req.valid("json");
    const row = await db.transaction().execute(async (trx) => {
      const note = await trx
        .insertInto("exampleNotes")
        .values({ id: uuidv7(), organizationId, text, createdBy: userId })
        .returningAll()
        .executeTakeFirstOrThrow();
      // Same transaction: the event is recorded exactly when the note is.
      await ctx.emit(
        "example.note.created",
        { id: note.id, text },
        { organizationId, related: { note: note.id }, idempotencyKey: `note:${note.id}`, trx },
      );
      return note;
    });
    // After the commit, so the task finds the note.
    // Typed from the task's own schema: a payload it would refuse fails the typecheck here.
    await ctx.addJob("example-notes:count-words", { noteId: row.id } satisfies TaskPayload<typeof countWordsTask>);
    return c.json(single(c, toNote(row)), 201);
  });

  app.openapi(listNotes, async (c) => {
    const query = parseCollectionQuery(new URL(c.req.url).searchParams, NOTE_COLLECTION);
    const own = db
      .selectFrom("exampleNotes")
      .selectAll()
      .where("organizationId", "=", c.get("principal").organizationId);
    const { rows, total, facets } = await runCollection(own, query, NOTE_COLLECTION);
    return c.json(collection(c, rows.map(toNote), total, query.page, facets), 200);
  });

  app.openapi(getNote, async (c) => {
    const { id } = c.req.valid("param");
    const row = await db
      .selectFrom("exampleNotes")
      .selectAll()
      .where("id", "=", id)
      .where("organizationId", "=", c.get("principal").organizationId)
      .executeTakeFirst();
    if (!row) throw new ApiError("EXAMPLE_NOTE_NOT_FOUND", { message: `No note ${id}`, details: { noteId: id } });
    return c.json(single(c, toNote(row)), 200);
  });
}
