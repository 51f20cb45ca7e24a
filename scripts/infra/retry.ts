// Start-up calls to a node that may be flaky (a proxy answering 502, a dropped connection, a timeout): tried again
// with a growing pause, so a flaky node delays the start instead of failing it. An answer that is the node's verdict
// (a revert, an unknown method) is not a fault of the connection and fails at once.

export interface RetryOptions {
  /** Tries in all (default 12: about 30 s of pauses with the defaults). */
  attempts?: number;
  /** The first pause; each next one doubles, up to `maxDelayMs` (defaults 100 ms and 5 s). */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Told of each failed try that will be tried again. */
  onRetry?: (what: string, attempt: number, error: Error) => void;
}

/** The error itself and the causes it wraps (viem and fetch wrap the network's error). */
function* causes(error: unknown): Generator<Error & { status?: number; code?: unknown; details?: string }> {
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) yield e;
}

/** True when the connection failed, not the request: worth another try. */
export function isTransient(error: unknown): boolean {
  for (const e of causes(error)) {
    const text = `${e.name} ${e.message} ${e.details ?? ""}`;
    if (e.name === "TimeoutError" || e.name === "AbortError" || e.name === "SocketClosedError") return true;
    if (typeof e.status === "number") return e.status === 408 || e.status === 429 || e.status >= 500;
    if (/HTTP (408|429|5\d\d)\b/.test(e.message)) return true;
    if (/fetch failed|socket hang up|other side closed|ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR/i.test(text)) return true;
    if (/HTTP request failed/i.test(e.message)) return true;
  }
  return false;
}

export async function retrying<T>(what: string, work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 12;
  let delay = options.firstDelayMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error;
      options.onRetry?.(what, attempt, error as Error);
      await new Promise((resolve) => setTimeout(resolve, delay * (0.75 + Math.random() / 2))); // jittered
      delay = Math.min(delay * 2, options.maxDelayMs ?? 5_000);
    }
  }
}
