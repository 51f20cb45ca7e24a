// Renders an ApiError in one of the spec's envelopes.
// Form A (code/status/message/data) answers /api/v2 and /api/v1; Form B ({error}) answers the legacy routes; /api/rpc
// answers the RPC transport's error (oRPC's `{json: {defined, code, status, message, data}}`) with the public object at
// `data.dapiError`.
import { isRpcPath } from "../rpc/path.ts";
import type { ApiError } from "./api-error.ts";

export type ErrorForm = "A" | "B" | "RPC";

export function errorFormFor(path: string): ErrorForm {
  if (isRpcPath(path)) return "RPC";
  return /^\/(api\/)?v[12](\/|$)/.test(path) ? "A" : "B";
}

/**
 * The public error object (Form B's `error`), which other transports carry too: a deployment stream's `error` event
 * and a failed step's `wireError`. Without a request (a worker's failure) it names none.
 */
export function publicError(error: ApiError, requestId?: string) {
  const d = error.definition;
  return {
    id: d.id,
    category: d.category,
    status: error.status,
    retryable: d.retryable,
    message: error.message,
    why: d.why,
    fix: error.fix,
    details: { code: error.code, ...error.details, ...(requestId ? { requestId } : {}) },
  };
}

export function renderError(error: ApiError, form: ErrorForm, requestId: string) {
  const d = error.definition;
  if (form === "A") {
    const data: Record<string, unknown> = {
      id: d.id,
      why: d.why,
      fix: error.fix,
      retryable: d.retryable,
      category: d.category,
      ...error.details,
      requestId,
    };
    data.id = d.id; // a detail named `id` never hides the error's registry id
    return { code: error.code, status: error.status, message: error.message, data };
  }
  if (form === "RPC") return { json: rpcError(error, requestId), meta: [] };
  return { error: publicError(error, requestId) };
}

/** The RPC transport's error (an oRPC error's JSON): every code of the registry is `defined`. */
export function rpcError(error: ApiError, requestId: string) {
  const dapiError = publicError(error, requestId);
  return {
    defined: true,
    code: error.code,
    status: error.status,
    message: error.message,
    data: { dapiError, retryable: dapiError.retryable },
  };
}
