// JSON-RPC 2.0 over one POST body: a request or a batch (an array). A request without `id` is a notification: it
// runs, and nothing is answered for it (a body of notifications only answers 204), even for an unknown method or a
// malformed one. Errors: -32700 parse, -32600 invalid request, -32601 unknown method, -32602 invalid params,
// -32603 internal (also a node or database that did not answer in time: BUNDLER_DEPENDENCY_UNAVAILABLE), 4100 a
// method the caller's roles do not allow, -32005 a batch over BUNDLER_MAX_BATCH_SIZE; a method's own refusal carries
// its ERC-7769 code. Each error's data.dapiError is the public error object (spec: Errors, Envelopes).
import { z } from "@hono/zod-openapi";
import { hasPermission, rolesGranting } from "../../host/auth/permissions.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { renderError } from "../../host/errors/render.ts";
import { type UnansweredDependency, unansweredDependency } from "../../host/errors/unanswered-dependency.ts";
import { zodIssues } from "../../host/http/validation.ts";
import { type BundlerErrorCode, JSON_RPC_CODES } from "./errors.ts";
import { METHODS, type MethodContext } from "./methods.ts";
import { rpcError } from "./rpc-error.ts";

type Id = string | number | null;

export const JsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number(), z.null()]).optional(),
    method: z.string(),
    params: z.array(z.unknown()).optional(),
  })
  .openapi("JsonRpcRequest");

export const JsonRpcResponseSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.unknown().optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi("JsonRpcResponse");

export interface CallContext extends MethodContext {
  requestId: string;
  debugMethods: boolean;
  /** The most requests a batch may hold (BUNDLER_MAX_BATCH_SIZE). */
  maxBatchSize: number;
  onUnexpected(error: unknown): void;
  /** A node or database that did not answer: the caller's to retry, not the bundler's fault. */
  onUnavailable(error: unknown, dependency: UnansweredDependency): void;
}

/** What the caller is told when a part the call needs did not answer (no Retry-After header here: HTTP 200). */
const UNANSWERED = {
  chain: "The chain's node did not answer in time; retry with exponential backoff",
  database: "The bundler's database cannot be reached right now; retry with exponential backoff",
} as const;

function errorAnswer(id: Id, error: ApiError, call: CallContext) {
  const code = JSON_RPC_CODES[error.code as BundlerErrorCode] ?? -32603;
  const dapiError = renderError(error, "B", call.requestId).error;
  return { jsonrpc: "2.0", id, error: { code, message: error.message, data: { ...error.details, dapiError } } };
}

const idOf = (value: unknown): Id => (typeof value === "string" || typeof value === "number" ? value : null);

/** The answer to one request (undefined for a notification). */
async function answerOne(request: unknown, call: CallContext) {
  const notification = typeof request === "object" && request !== null && !Array.isArray(request) && !("id" in request);
  const id = notification ? null : idOf((request as { id?: unknown })?.id);
  const fail = (error: ApiError) => (notification ? undefined : errorAnswer(id, error, call));
  const envelope = JsonRpcRequestSchema.safeParse(request);
  if (!envelope.success) {
    const issues = zodIssues(envelope.error);
    return fail(
      rpcError(
        "BUNDLER_INVALID_REQUEST",
        `Invalid request: ${issues[0]?.path || "body"} ${issues[0]?.message ?? ""}`.trim(),
        { issues },
      ),
    );
  }
  const { method: name, params = [] } = envelope.data;
  const method = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
  if (!method || (method.debug && !call.debugMethods))
    return fail(
      rpcError("BUNDLER_METHOD_NOT_FOUND", `The method ${name} does not exist or is not available`, { method: name }),
    );
  if (!hasPermission(call.principal.roles, method.permission))
    return fail(
      rpcError("BUNDLER_METHOD_NOT_PERMITTED", `The method ${name} needs the ${method.permission} permission`, {
        method: name,
        requiredPermission: method.permission,
        requiredRoles: rolesGranting(method.permission),
      }),
    );
  const parsed = method.params.safeParse(params);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error).map((i) => ({ ...i, path: `params.${i.path}` }));
    return fail(
      rpcError("BUNDLER_INVALID_PARAMS", `Invalid params: ${issues[0]?.path} ${issues[0]?.message}`, { issues }),
    );
  }
  try {
    const result = await method.run(call, parsed.data);
    return notification ? undefined : { jsonrpc: "2.0", id, result: result ?? null };
  } catch (error) {
    if (error instanceof ApiError && error.code in JSON_RPC_CODES) return fail(error);
    const unanswered = unansweredDependency(error);
    if (unanswered) {
      call.onUnavailable(error, unanswered);
      return fail(rpcError("BUNDLER_DEPENDENCY_UNAVAILABLE", UNANSWERED[unanswered]));
    }
    call.onUnexpected(error);
    return fail(rpcError("BUNDLER_INTERNAL_ERROR", "The bundler failed unexpectedly"));
  }
}

/** The response body for a request body, or undefined when nothing is answered (204). */
export async function answerJsonRpc(text: string, call: CallContext): Promise<unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return errorAnswer(null, rpcError("BUNDLER_PARSE_ERROR", "Parse error: the body is not valid JSON"), call);
  }
  if (!Array.isArray(body)) return answerOne(body, call);
  if (body.length === 0)
    return errorAnswer(null, rpcError("BUNDLER_INVALID_REQUEST", "Invalid request: an empty batch"), call);
  // Refused whole, before any request runs: one body must not queue unbounded work.
  if (body.length > call.maxBatchSize)
    return errorAnswer(
      null,
      rpcError(
        "BUNDLER_BATCH_TOO_LARGE",
        `The batch holds ${body.length} requests; at most ${call.maxBatchSize} are allowed`,
        { batchSize: body.length, maxBatchSize: call.maxBatchSize },
      ),
      call,
    );
  // One at a time: a batch's sends of one sender keep their order.
  const answers: unknown[] = [];
  for (const request of body) answers.push(await answerOne(request, call));
  const answered = answers.filter((a) => a !== undefined);
  return answered.length > 0 ? answered : undefined;
}
