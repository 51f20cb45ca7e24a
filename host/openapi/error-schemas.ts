// The error envelopes as document schemas: Form A (v2 and /api/v1), Form B (the unversioned legacy routes) and the
// RPC transport's error (/api/rpc), which carries Form B's public object at `data.dapiError`.
import { z } from "@hono/zod-openapi";
import type { ErrorForm } from "../errors/render.ts";
import type { App } from "../http/env.ts";
import { ErrorFormASchema } from "../http/schemas.ts";

export const ERROR_SCHEMA_NAMES: Record<ErrorForm, string> = { A: "Error", B: "LegacyError", RPC: "RpcError" };

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

export const RpcErrorSchema = z
  .object({
    json: z.object({
      defined: z.boolean().openapi({ description: "true: the code is in the public registry" }),
      code: z.string().openapi({ example: "API_KEY_NOT_SUPPORTED_ON_RPC" }),
      status: z.number().int(),
      message: z.string(),
      data: z.object({ dapiError: ErrorFormBSchema.shape.error, retryable: z.boolean() }),
    }),
    meta: z.array(z.unknown()),
  })
  .openapi(ERROR_SCHEMA_NAMES.RPC);

/** Registers the envelopes so a document can reference either even when no route names it. */
export function registerErrorSchemas(registry: App["openAPIRegistry"]) {
  registry.register(ERROR_SCHEMA_NAMES.A, ErrorFormASchema);
  registry.register(ERROR_SCHEMA_NAMES.B, ErrorFormBSchema);
  registry.register(ERROR_SCHEMA_NAMES.RPC, RpcErrorSchema);
}
