// The two error envelopes as document schemas: Form A (v2 and /api/v1) and Form B (the unversioned legacy routes).
import { z } from "@hono/zod-openapi";
import type { ErrorForm } from "../errors/render.ts";
import type { App } from "../http/env.ts";
import { ErrorFormASchema } from "../http/schemas.ts";

export const ERROR_SCHEMA_NAMES: Record<ErrorForm, string> = { A: "Error", B: "LegacyError" };

export const ErrorFormBSchema = z
  .object({
    error: z.object({
      id: z.string().openapi({ example: "SVC-0001" }),
      category: ErrorFormASchema.shape.data.shape.category,
      status: z.number().int(),
      retryable: z.boolean(),
      message: z.string(),
      why: z.string(),
      fix: z.string(),
      details: z
        .object({ code: z.string().openapi({ example: "BAD_REQUEST" }), requestId: z.string() })
        .passthrough()
        .openapi({ description: "The error code, the request id and the route's own fields (e.g. issues)." }),
    }),
  })
  .openapi(ERROR_SCHEMA_NAMES.B);

/** Registers both envelopes so a document can reference either even when no route names it. */
export function registerErrorSchemas(registry: App["openAPIRegistry"]) {
  registry.register(ERROR_SCHEMA_NAMES.A, ErrorFormASchema);
  registry.register(ERROR_SCHEMA_NAMES.B, ErrorFormBSchema);
}
