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

/** Each request's deadline per node, aborting its calls once passed. */
const deadlines = new WeakMap<object, Map<PublicClient, { signal: AbortSignal; timer: NodeJS.Timeout }>>();

/**
 * The request `c`'s deadline on `client`'s node: aborted with a TimeoutError once `timeoutMs` passed since the
 * request's first use of that node (or never, once the request has ended: endRequestDeadlines).
 */
export function requestDeadline(c: Context, client: PublicClient, timeoutMs: number): AbortSignal {
  const byClient = deadlines.get(c) ?? new Map<PublicClient, { signal: AbortSignal; timer: NodeJS.Timeout }>();
  deadlines.set(c, byClient);
  let deadline = byClient.get(client);
  if (!deadline) {
    const controller = new AbortController();
    const url = client.chain?.rpcUrls.default.http[0] ?? "the chain's node";
    const timer = setTimeout(
      () => controller.abort(new TimeoutError({ body: { deadlineMs: timeoutMs }, url })),
      timeoutMs,
    );
    timer.unref();
    deadline = { signal: controller.signal, timer };
    byClient.set(client, deadline);
  }
  return deadline.signal;
}

/** The request `c` has ended: its deadlines' timers go now rather than live on until they would have fired. */
export function endRequestDeadlines(c: Context): void {
  for (const { timer } of deadlines.get(c)?.values() ?? []) clearTimeout(timer);
  deadlines.delete(c);
}

/** Middleware: ends each request's chain deadlines when its answer is made, whatever it was. */
export const endChainDeadlines: MiddlewareHandler = async (c, next) => {
  try {
    await next();
  } finally {
    endRequestDeadlines(c);
  }
};

/**
 * `client` for the request `c`: every call it makes is aborted by the request's deadline (its batches stay its own:
 * viem's `scope`, which builds the client's actions again, ~0.3 ms: a hot path sends raw requests instead,
 * request-chain.ts).
 */
export function clientForRequest(c: Context, client: PublicClient, timeoutMs: number): PublicClient {
  return client.scope({ signal: requestDeadline(c, client, timeoutMs) }) as PublicClient;
}
