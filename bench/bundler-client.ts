// The client side of the bundler benchmark, run as its own process (as real clients are). OPS_FILE holds, per
// sender, its signed operations in nonce order (ERC-7769 JSON) and their hashes. One lane per sender sends its
// operations with eth_sendUserOperation in nonce order, each once the previous one was accepted, with at most
// WINDOW of them not yet in a receipt (the bundler holds up to 4 of an unstaked sender, ERC-7562); one poller asks
// for every outstanding receipt in one JSON-RPC batch. Prints, as JSON, when it started and
// finished (epoch ms), each operation's send-to-receipt latency and how long eth_sendUserOperation took (ms).
import { readFileSync } from "node:fs";

const { BASE_URL, API_KEY, ENTRY_POINT, OPS_FILE, POLL_MS = "25", WINDOW = "4" } = process.env;
const lanes: { op: Record<string, string>; hash: string }[][] = JSON.parse(readFileSync(OPS_FILE as string, "utf8"));

let nextId = 1;
async function rpc(body: unknown): Promise<unknown> {
  const res = await fetch(`${BASE_URL}/api/v2/bundler`, {
    method: "POST",
    headers: { "x-api-key": API_KEY as string, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`the bundler answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Outstanding operations: hash -> what resolves its lane's wait. */
const waiting = new Map<string, (receipt: { success: boolean }) => void>();
let done = false;
async function poll() {
  while (!done) {
    const hashes = [...waiting.keys()];
    if (hashes.length > 0) {
      const answers = (await rpc(
        hashes.map((hash, i) => ({ jsonrpc: "2.0", id: i, method: "eth_getUserOperationReceipt", params: [hash] })),
      )) as { id: number; result: { success: boolean } | null; error?: unknown }[];
      for (const answer of answers) {
        if (answer.error) throw new Error(`eth_getUserOperationReceipt: ${JSON.stringify(answer.error)}`);
        if (answer.result) {
          waiting.get(hashes[answer.id])?.(answer.result);
          waiting.delete(hashes[answer.id]);
        }
      }
    }
    await new Promise((r) => setTimeout(r, Number(POLL_MS)));
  }
}

const latencies: number[] = [];
const accepts: number[] = [];
const startedAt = Date.now();
const poller = poll();
await Promise.all(
  lanes.map(async (ops) => {
    const inFlight = new Set<Promise<void>>();
    for (const { op, hash } of ops) {
      if (inFlight.size >= Number(WINDOW)) await Promise.race(inFlight);
      const sentAt = performance.now();
      const answer = (await rpc({
        jsonrpc: "2.0",
        id: nextId++,
        method: "eth_sendUserOperation",
        params: [op, ENTRY_POINT],
      })) as {
        result?: string;
        error?: unknown;
      };
      if (answer.result !== hash) throw new Error(`eth_sendUserOperation: ${JSON.stringify(answer)}`);
      const acceptedAt = performance.now();
      accepts.push(acceptedAt - sentAt);
      // Polled only once accepted: an unknown hash makes the bundler search the EntryPoint's logs.
      const receipted: Promise<void> = new Promise<{ success: boolean }>((resolve) => waiting.set(hash, resolve)).then(
        (receipt) => {
          if (!receipt.success) throw new Error(`operation ${hash} failed on chain`);
          latencies.push(performance.now() - sentAt);
          inFlight.delete(receipted);
        },
      );
      inFlight.add(receipted);
    }
    await Promise.all(inFlight);
  }),
);
const finishedAt = Date.now();
done = true;
await poller;
process.stdout.write(JSON.stringify({ startedAt, finishedAt, latencies, accepts }));
