// A node that does not answer (a stall, a dropped connection, an RPC proxy failing) is 503 SERVICE_UNAVAILABLE
// (SVC-0083), never a 500 nor a request left hanging: a request's live reads of the chain share one deadline
// (CHAIN_REQUEST_TIMEOUT_SECONDS), after which its calls are aborted with viem's TimeoutError.
import type { Context } from "hono";
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

/** Each request's deadline per node, aborting its calls once passed. */
const deadlines = new WeakMap<object, Map<PublicClient, AbortSignal>>();

/**
 * Requests whose first use of a node falls in one tick of this many milliseconds share one deadline, and so one
 * scoped client: scoping re-applies all of a viem client's actions (0.3-0.4 ms), most of the host's own work for a
 * bundler acceptance's chain read when each request had its own. Each gets at least its full timeout.
 */
const DEADLINE_TICK_MS = 100;
const tickDeadlines = new WeakMap<PublicClient, Map<number, { tick: number; signal: AbortSignal }>>();

function sharedDeadline(client: PublicClient, timeoutMs: number): AbortSignal {
  const byTimeout = tickDeadlines.get(client) ?? new Map<number, { tick: number; signal: AbortSignal }>();
  tickDeadlines.set(client, byTimeout);
  const tick = Math.floor(Date.now() / DEADLINE_TICK_MS);
  const current = byTimeout.get(timeoutMs);
  if (current?.tick === tick) return current.signal;
  const controller = new AbortController();
  const url = client.chain?.rpcUrls.default.http[0] ?? "the chain's node";
  const endsIn = (tick + 1) * DEADLINE_TICK_MS - Date.now() + timeoutMs;
  setTimeout(() => controller.abort(new TimeoutError({ body: { deadlineMs: timeoutMs }, url })), endsIn).unref();
  byTimeout.set(timeoutMs, { tick, signal: controller.signal });
  return controller.signal;
}

/**
 * `client` for the request `c`: every call it makes is aborted with a TimeoutError once `timeoutMs` (and under a
 * tick more) passed since the request's first use of the node.
 */
export function clientForRequest(c: Context, client: PublicClient, timeoutMs: number): PublicClient {
  const byClient = deadlines.get(c) ?? new Map<PublicClient, AbortSignal>();
  deadlines.set(c, byClient);
  let signal = byClient.get(client);
  if (!signal) {
    signal = sharedDeadline(client, timeoutMs);
    byClient.set(client, signal);
  }
  return client.scope({ signal }) as PublicClient; // viem keeps one scope per signal
}
