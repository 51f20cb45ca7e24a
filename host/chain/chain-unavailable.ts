// A node that does not answer (a stall, a dropped connection, an RPC proxy failing) is 503 SERVICE_UNAVAILABLE
// (SVC-0083), never a 500 nor a request left hanging: a request's live reads of the chain share one deadline
// (CHAIN_REQUEST_TIMEOUT_SECONDS), after which its calls are aborted with viem's TimeoutError.
import type { Context, MiddlewareHandler } from "hono";
import { HttpRequestError, type PublicClient, SocketClosedError, TimeoutError } from "viem";
import { ApiError } from "../errors/api-error.ts";

/** Whether `error` (or one of its causes) says the node did not answer, as opposed to answering with a refusal. */
export function isChainUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof TimeoutError || e instanceof HttpRequestError || e instanceof SocketClosedError) return true;
  }
  return false;
}

export function chainUnavailable(): ApiError {
  return new ApiError("SERVICE_UNAVAILABLE", {
    message: "The chain's node did not answer in time; retry with exponential backoff",
  });
}

/**
 * A catch handler for a read that may fail for its own reasons (e.g. a contract without that function): the
 * fallback then, but a node that did not answer still fails the request (503), never a made-up answer.
 */
export const unlessChainUnavailable =
  <T>(fallback: T) =>
  (error: unknown): T => {
    if (isChainUnavailable(error)) throw error;
    return fallback;
  };

/** A request's deadline on one node: its calls are aborted once passed. */
interface Deadline {
  controller: AbortController;
  timer?: NodeJS.Timeout;
}

/** Each request's deadline per node. */
const deadlines = new WeakMap<object, Map<PublicClient, Deadline>>();
/**
 * Deadlines a finished request did not reach, per node client, for the next requests: viem's `scope` rebuilds every
 * action of the client (~0.3 ms, once per request that calls the node, e.g. each bundler acceptance) but answers a
 * signal it has seen from its cache, so a request reuses a signal (and its scoped client) another request returned.
 */
const idle = new WeakMap<PublicClient, Deadline[]>();
const MAX_IDLE = 64;

/**
 * `client` for the request `c`: every call it makes is aborted with a TimeoutError once `timeoutMs` passed since the
 * request's first use of the node (its batches stay its own: viem's `scope`). releaseRequestDeadlines ends it.
 */
export function clientForRequest(c: Context, client: PublicClient, timeoutMs: number): PublicClient {
  const byClient = deadlines.get(c) ?? new Map<PublicClient, Deadline>();
  deadlines.set(c, byClient);
  let deadline = byClient.get(client);
  if (!deadline) {
    deadline = idle.get(client)?.pop() ?? { controller: new AbortController() };
    const { controller } = deadline;
    const url = client.chain?.rpcUrls.default.http[0] ?? "the chain's node";
    deadline.timer = setTimeout(
      () => controller.abort(new TimeoutError({ body: { deadlineMs: timeoutMs }, url })),
      timeoutMs,
    );
    deadline.timer.unref();
    byClient.set(client, deadline);
  }
  return client.scope({ signal: deadline.controller.signal }) as PublicClient;
}

/** The request `c` is answered: its deadlines stop, and those not reached serve later requests. */
export function releaseRequestDeadlines(c: Context): void {
  const byClient = deadlines.get(c);
  if (!byClient) return;
  deadlines.delete(c);
  for (const [client, deadline] of byClient) {
    clearTimeout(deadline.timer);
    if (deadline.controller.signal.aborted) continue; // aborted for good: dropped
    const pool = idle.get(client) ?? [];
    idle.set(client, pool);
    if (pool.length < MAX_IDLE) pool.push(deadline);
  }
}

/** Ends each request's deadlines once it is answered (or failed): releaseRequestDeadlines. */
export const endRequestDeadlines: MiddlewareHandler = async (c, next) => {
  try {
    await next();
  } finally {
    releaseRequestDeadlines(c);
  }
};
