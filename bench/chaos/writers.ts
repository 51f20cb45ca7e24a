// The chaos suite's clients: mints of one token, each with an amount of its own (so that a duplicate or a loss on
// chain names its write) and an Idempotency-Key, each sent again under that key — through refused connections,
// 5xx, 503 with Retry-After, timeouts — until it is terminal, as a careful client does.
import type { Credentials } from "./platform-process.ts";

/** Holders the mints go to, in turn (anvil's accounts 1-4, lowercase). */
export const RECIPIENTS = [
  "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
  "0x90f79bf6eb2c8f437d52de9e7f1c5a8a2d4c8aa1",
  "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
] as const;

const TERMINAL = new Set(["COMPLETED", "FAILED", "DEAD_LETTER", "CANCELLED"]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Write {
  key: string;
  amount: bigint;
  recipient: string;
  /** Answered 200 or 202 at least once: the platform took it. */
  accepted: boolean;
  /** Its last terminal status (undefined: never terminal within the client's patience). */
  status?: string;
  txHash?: string;
  /** Answers other than 200/202 it saw (status code or "network"), for the report. */
  refusals: Record<string, number>;
  /** What its client is doing now (for the progress line). */
  phase: string;
}

export interface Writers {
  writes: Write[];
  /** How many writes were accepted so far. */
  accepted(): number;
  /** Sends one more write (a probe) and resolves when it is terminal; returns it. */
  probe(name: string): Promise<Write>;
  /** Resolves when every write of the burst is terminal (or the patience ran out). */
  done: Promise<void>;
  /** Each accepted write once more under its key until terminal: the current truth (after reorgs, a restart). */
  confirmAll(timeoutMs: number): Promise<void>;
  /** Gives up on every write still being sent (a scenario that failed). */
  stop(): void;
}

export function startWriters(options: {
  credentials: Credentials;
  token: string;
  scenario: string;
  count: number;
  concurrency: number;
  /** How long one write is retried before the client gives up on it. */
  patienceMs: number;
}): Writers {
  const { credentials, token, scenario } = options;
  const writes: Write[] = [];
  let stopped = false;
  const newWrite = (key: string, amount: bigint): Write => {
    const write: Write = {
      key,
      amount,
      recipient: RECIPIENTS[writes.length % RECIPIENTS.length],
      accepted: false,
      refusals: {},
      phase: "waiting",
    };
    writes.push(write);
    return write;
  };

  /** One POST under the write's key; the answer's status and body (status 0: no answer). */
  async function send(write: Write, waitSeconds: number) {
    try {
      const res = await fetch(`${credentials.baseUrl}/api/v2/tokens/${token}/mint`, {
        method: "POST",
        headers: {
          "x-api-key": credentials.apiKey,
          "content-type": "application/json",
          "idempotency-key": write.key,
          prefer: `respond-async, wait=${waitSeconds}`,
        },
        body: JSON.stringify({ recipients: [write.recipient], amounts: [String(write.amount)] }),
        signal: AbortSignal.timeout((waitSeconds + 15) * 1000),
      });
      // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read loosely
      const body: any = await res.json().catch(() => undefined);
      return { status: res.status, body, retryAfter: Number(res.headers.get("retry-after") ?? 0) };
    } catch {
      return { status: 0, body: undefined, retryAfter: 0 };
    }
  }

  /** Sends the write under its key until it answers a terminal status. */
  async function drive(write: Write, patienceMs: number) {
    const deadline = Date.now() + patienceMs;
    let pause = 250; // after a refusal without Retry-After: doubling to 4 s, as a polite client backs off
    while (Date.now() < deadline && !stopped) {
      write.phase = "sending";
      const { status, body, retryAfter } = await send(write, 10);
      if (status === 200 && TERMINAL.has(body?.data?.status)) {
        Object.assign(write, { accepted: true, status: body.data.status, txHash: body.meta?.txHashes?.[0] });
        write.phase = "done";
        return;
      }
      if (status === 202) {
        write.accepted = true; // not terminal yet: the next POST under the key waits again
        await sleep(100);
        continue;
      }
      // A refusal of the write itself (a revert, cancelled, unrecoverable) names the request: terminal too.
      if (status >= 400 && status < 500 && status !== 429 && body?.data?.transactionId) {
        Object.assign(write, { accepted: true, status: `FAILED ${body.code}`, phase: "done" });
        return;
      }
      const label = status === 0 ? "network" : `${status}${body?.code ? ` ${body.code}` : ""}`;
      write.refusals[label] = (write.refusals[label] ?? 0) + 1;
      write.phase = `paused after ${label} (Retry-After ${retryAfter})`;
      if (status === 400) {
        write.status = `REFUSED ${body?.message}`; // the write itself is wrong: sending it again cannot help
        return;
      }
      await sleep(retryAfter > 0 ? retryAfter * 1000 : pause);
      pause = Math.min(pause * 2, 4_000);
    }
  }

  const burst = Array.from({ length: options.count }, (_, i) => newWrite(`${scenario}-${i}`, BigInt(i + 1)));
  let next = 0;
  const done = Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < burst.length) await drive(burst[next++], options.patienceMs);
    }),
  ).then(() => undefined);

  let probes = 0;
  return {
    writes,
    accepted: () => writes.filter((w) => w.accepted).length,
    async probe(name) {
      probes += 1;
      // Amounts above the burst's: each probe is a write of its own in the audit too.
      const write = newWrite(`${scenario}-probe-${name}`, BigInt(1_000_000 + probes));
      await drive(write, options.patienceMs);
      return write;
    },
    done,
    async confirmAll(timeoutMs) {
      const pending = writes.filter((w) => w.accepted);
      let i = 0;
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (i < pending.length) await drive(pending[i++], timeoutMs);
        }),
      );
    },
    stop() {
      stopped = true;
    },
  };
}
