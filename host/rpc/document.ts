// The RPC transport in the v2 document: POST /api/rpc/{procedure} describes the protocol (each procedure's operation
// carries its name as operationId, dots for slashes, as an oRPC client calls it: `client.tokens.mint.post(input)`).
import { z } from "@hono/zod-openapi";
import type { App } from "../http/env.ts";
import { ERROR_SCHEMA_NAMES } from "../openapi/error-schemas.ts";
import { SESSION_COOKIE_SCHEME } from "../openapi/security-schemes.ts";
import { RPC_PREFIX } from "./path.ts";

export const RPC_TAG = "rpc";

const DESCRIPTION = [
  "The API's operations as procedures for browser sessions, over oRPC's RPC protocol (any oRPC client, e.g.",
  "`RPCLink` from `@orpc/client`, at `/api/rpc`). Each procedure is an operation of this document: its name is the",
  "operation's `operationId` with slashes for dots (`tokens.mint.post` is `POST /api/rpc/tokens/mint/post`). It takes",
  "the same input, checks the same permissions and runs the same handler as its REST route. The input is one object:",
  "the path's parameters by name, the other fields the route's body (routes that take one) or its query (nested",
  "objects as `filter[status]`). The context headers (`Idempotency-Key`, `Prefer`, `X-Transaction-Speed`,",
  "`X-Participant`, `X-Executor`, `X-Chain-Id`, `x-organization-id`) are sent on the RPC request. A session cookie is required: an `X-Api-Key` is",
  "refused with 403 `API_KEY_NOT_SUPPORTED_ON_RPC`. A failure answers the route's status with the RPC error, the",
  "public error object at `data.dapiError`.",
].join(" ");

/** Registers the transport's own operation, listing every procedure the app's routes give. */
export function documentRpcTransport(app: App, procedureNames: string[]) {
  app.openAPIRegistry.registerPath({
    method: "post",
    path: `${RPC_PREFIX}/{procedure}`,
    tags: [RPC_TAG],
    summary: "Call a procedure",
    description: DESCRIPTION,
    security: [{ [SESSION_COOKIE_SCHEME]: [] }],
    request: {
      params: z.object({ procedure: z.enum(procedureNames as [string, ...string[]]) }),
      body: {
        required: true,
        content: {
          "application/json": {
            schema: z
              .object({ json: z.record(z.string(), z.unknown()).optional(), meta: z.array(z.unknown()).optional() })
              .openapi({ example: { json: { tokenAddress: "0x…", recipient: "0x…", amount: "100" } } }),
          },
        },
      },
    },
    responses: {
      200: {
        description: "The REST route's answer, as `json`",
        content: {
          "application/json": { schema: z.object({ json: z.unknown(), meta: z.array(z.unknown()).optional() }) },
        },
      },
      default: {
        description: "The RPC error: the public error object at `json.data.dapiError`",
        content: { "application/json": { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAMES.RPC}` } } },
      },
    },
  });
}
