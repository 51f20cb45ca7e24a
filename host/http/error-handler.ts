// The one place errors become responses: ApiError as is, framework errors, a missing chain view (503
// INDEXER_REINDEXING), a node that did not answer and a database that cannot be reached (503 SERVICE_UNAVAILABLE)
// mapped, anything else SVC-0084. Every 503 says when to retry (Retry-After).
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { chainUnavailable } from "../chain/chain-unavailable.ts";
import { isMissingChainView } from "../db/chain-views.ts";
import { databaseUnavailable } from "../db/outage.ts";
import { ApiError } from "../errors/api-error.ts";
import { errorFormFor, renderError } from "../errors/render.ts";
import { unansweredDependency } from "../errors/unanswered-dependency.ts";
import { indexNotReady } from "../index-gate.ts";
import type { Logger } from "../logger.ts";
import type { AppEnv } from "./env.ts";

/** A 503 without its own Retry-After: the parts it waits on come back within seconds. */
const RETRY_AFTER_SECONDS = 1;

function toApiError(error: unknown, c: Context<AppEnv>): ApiError | undefined {
  if (error instanceof ApiError) return error;
  // The chain views were dropped under the request (the indexer restarts): as if it had come a moment later.
  if (isMissingChainView(error)) {
    const chainId = c.get("requestChainId");
    if (chainId !== undefined) c.get("indexGate")?.viewsMissing(chainId);
    return indexNotReady(chainId);
  }
  const unanswered = unansweredDependency(error);
  if (unanswered === "chain") return chainUnavailable();
  if (unanswered === "database") return databaseUnavailable();
  if (error instanceof HTTPException) {
    if (error.status === 400) return new ApiError("BAD_REQUEST", { message: error.message || undefined });
    if (error.status === 401) return new ApiError("UNAUTHORIZED");
    if (error.status === 413) return new ApiError("PAYLOAD_TOO_LARGE");
    if (error.status === 415) return new ApiError("UNSUPPORTED_MEDIA_TYPE");
  }
  // The body stopped arriving (the connection closed, e.g. after Node answered 408): no fault of the host.
  if ((error as NodeJS.ErrnoException)?.code === "ECONNRESET") return new ApiError("REQUEST_TIMEOUT");
  return undefined;
}

export function errorResponse(c: Context<AppEnv>, error: ApiError) {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  // A 503 is always worth retrying soon (e.g. AUTH_STORE_UNAVAILABLE while PostgreSQL restarts).
  if (error.status === 503 && error.headers["Retry-After"] === undefined) {
    c.header("Retry-After", String(RETRY_AFTER_SECONDS));
  }
  const form = c.env?.rpcInner ? "RPC" : errorFormFor(c.req.path);
  const body = renderError(error, form, c.get("requestId"));
  return c.json(body, error.status as 400);
}

export function handleError(logger: Logger) {
  return (error: unknown, c: Context<AppEnv>) => {
    const known = toApiError(error, c);
    if (known) return errorResponse(c, known);
    logger.error("unhandled error", {
      requestId: c.get("requestId"),
      path: c.req.path,
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
    });
    return errorResponse(c, new ApiError("INTERNAL_SERVER_ERROR"));
  };
}
