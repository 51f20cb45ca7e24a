// The plugin's request and response shapes (zod, so the OpenAPI document describes them) and its event's payload.
import { z } from "@hono/zod-openapi";

export const NoteBodySchema = z.object({ text: z.string().trim().min(1).max(2000) }).openapi("ExampleNoteBody");

export const NoteSchema = z
  .object({
    id: z.string(),
    text: z.string(),
    wordCount: z.number().int().nullable().openapi({ description: "Counted by a task shortly after creation" }),
    createdBy: z.string(),
    createdAt: z.string(),
  })
  .openapi("ExampleNote");

export const NoteIdParams = z.object({ id: z.string().min(1).max(64) });

/** `example.note.created`'s data. */
export const NoteCreatedPayload = z.object({ id: z.string(), text: z.string() });
