// A fetch for JSON-RPC calls to a node that sends each call at once while the node is idle and, while `lone` calls
// are already in flight, holds the next ones and sends them together as one batch when one of those returns: a lone
// call waits for no timer (viem's batching holds every call for a setTimeout), and a burst costs the node and this
// process one HTTP exchange instead of one per call (128 traces of a bundler's opening burst: 28-48 ms as one batch
// against 60-190 ms as 128 requests on anvil, 2 cores). Transactions are never held: their order is the sender's.
const NEVER_HELD = new Set(["eth_sendRawTransaction", "eth_sendTransaction"]);

const JSON_HEADERS = { "content-type": "application/json" };

interface Held {
  id: unknown;
  body: string;
  init: RequestInit;
  resolve(response: Response): void;
  reject(error: unknown): void;
  /** Once the caller gave up (its signal aborted): no answer is owed. */
  settled: boolean;
}

interface NodeState {
  inFlight: number;
  held: Held[];
}

export interface CoalescingOptions {
  /** Calls in flight before the next are held (default 2: a 2-core node answers two at once). */
  lone?: number;
  /** The most calls one batch carries (default 200). */
  maxBatch?: number;
}

/** A single call's body, parsed for its id and method; undefined for anything else (a batch, no JSON). */
function singleCall(body: unknown): { id: unknown; method: unknown } | undefined {
  if (typeof body !== "string" || body[0] !== "{") return undefined;
  try {
    const call = JSON.parse(body) as { id?: unknown; method?: unknown };
    return call.id === undefined ? undefined : { id: call.id, method: call.method };
  } catch {
    return undefined;
  }
}

const abortReason = (signal: AbortSignal) =>
  signal.reason ?? new DOMException("This operation was aborted", "AbortError");

export function coalescingFetch(send: typeof fetch, options: CoalescingOptions = {}): typeof fetch {
  const lone = options.lone ?? 2;
  const maxBatch = options.maxBatch ?? 200;
  const nodes = new Map<string, NodeState>();
  const stateOf = (url: string) => {
    let state = nodes.get(url);
    if (!state) {
      state = { inFlight: 0, held: [] };
      nodes.set(url, state);
    }
    return state;
  };

  async function sendAlone(url: string, state: NodeState, init: RequestInit | undefined): Promise<Response> {
    state.inFlight++;
    try {
      return await send(url, init);
    } finally {
      state.inFlight--;
      flush(url, state);
    }
  }

  function flush(url: string, state: NodeState) {
    while (state.inFlight < lone) {
      const batch = state.held.splice(0, maxBatch).filter((call) => !call.settled);
      if (batch.length === 0) return;
      if (batch.length === 1) {
        const [call] = batch as [Held];
        call.settled = true;
        sendAlone(url, state, call.init).then(call.resolve, call.reject);
      } else void sendBatch(url, state, batch);
    }
  }

  async function sendBatch(url: string, state: NodeState, batch: Held[]) {
    state.inFlight++;
    // The batch's own request ends once every caller in it gave up (each caller's signal answers it alone).
    const controller = new AbortController();
    let waiting = batch.length;
    for (const call of batch)
      call.init.signal?.addEventListener("abort", () => --waiting === 0 && controller.abort(), { once: true });
    try {
      const { signal: _, body: __, ...init } = batch[0]!.init;
      const response = await send(url, {
        ...init,
        body: `[${batch.map((call) => call.body).join(",")}]`,
        signal: controller.signal,
      });
      const text = await response.text();
      let answers: unknown;
      try {
        answers = JSON.parse(text);
      } catch {}
      if (!response.ok || !Array.isArray(answers)) {
        // The node refused the batch as a whole: each caller sees that answer as its own call's.
        for (const call of batch)
          settle(call, () => new Response(text, { status: response.status, statusText: response.statusText }));
        return;
      }
      const byId = new Map<unknown, unknown>();
      for (const answer of answers) byId.set((answer as { id?: unknown })?.id, answer);
      for (const call of batch) {
        const answer = byId.get(call.id);
        if (answer === undefined) {
          // Left out of the batch's answer: asked again on its own.
          if (!call.settled) {
            call.settled = true;
            send(url, call.init).then(call.resolve, call.reject);
          }
        } else settle(call, () => new Response(JSON.stringify(answer), { status: 200, headers: JSON_HEADERS }));
      }
    } catch (error) {
      for (const call of batch)
        if (!call.settled) {
          call.settled = true;
          call.reject(error);
        }
    } finally {
      state.inFlight--;
      flush(url, state);
    }
  }

  function settle(call: Held, response: () => Response) {
    if (call.settled) return;
    call.settled = true;
    call.resolve(response());
  }

  return (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const state = stateOf(url);
    if (state.inFlight < lone) return sendAlone(url, state, init);
    const call = singleCall(init?.body);
    if (!call || NEVER_HELD.has(call.method as string)) return sendAlone(url, state, init);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<Response>((resolve, reject) => {
      const held: Held = { id: call.id, body: init!.body as string, init: init!, resolve, reject, settled: false };
      signal?.addEventListener(
        "abort",
        () => {
          if (held.settled) return;
          held.settled = true;
          reject(abortReason(signal));
        },
        { once: true },
      );
      state.held.push(held);
    });
  };
}
