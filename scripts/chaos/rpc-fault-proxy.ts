// A JSON-RPC HTTP proxy in front of a node that misbehaves on purpose, for chaos tests: it answers some requests 502,
// drops some connections without an answer, delays some, and loses the answer of some eth_sendRawTransaction calls
// after the node has taken them (the client cannot tell whether its transaction went out). Loopback only.
//   tsx scripts/chaos/rpc-fault-proxy.ts <upstream URL> [port] (rates from RPC_FAULT_* variables, see below)
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RpcFaultOptions {
  /** Share of requests answered 502 Bad Gateway without reaching the node (0-1). */
  errorRate?: number;
  /** Share of connections closed without an answer, before reaching the node. */
  dropRate?: number;
  /** Share of requests held `delayMs` before they go on. */
  delayRate?: number;
  delayMs?: number;
  /** Share of eth_sendRawTransaction calls whose answer is lost after the node took the transaction. */
  dropSendAnswerRate?: number;
  /** The listening port (default: a free one). */
  port?: number;
  /** Random numbers in [0, 1) (default Math.random): a seeded one makes a run repeatable. */
  random?: () => number;
}

export interface RpcFaultCounts {
  requests: number;
  errors: number;
  drops: number;
  delays: number;
  droppedSendAnswers: number;
}

export interface RpcFaultProxy {
  url: string;
  /** What it did so far. */
  counts: RpcFaultCounts;
  /** Changes the rates from now on (e.g. a fault that ends). */
  setFaults(options: Omit<RpcFaultOptions, "port" | "random">): void;
  stop(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Whether a request body (one call or a batch) sends a raw transaction. */
function sendsTransaction(body: Buffer): boolean {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { method?: string } | { method?: string }[];
    return (Array.isArray(parsed) ? parsed : [parsed]).some((call) => call?.method === "eth_sendRawTransaction");
  } catch {
    return false;
  }
}

export async function startRpcFaultProxy(upstream: string, options: RpcFaultOptions = {}): Promise<RpcFaultProxy> {
  if (!LOOPBACK.has(new URL(upstream).hostname))
    throw new Error(`The fault proxy fronts loopback nodes only: ${upstream}`);
  let faults = { ...options };
  const random = options.random ?? Math.random;
  const counts: RpcFaultCounts = { requests: 0, errors: 0, drops: 0, delays: 0, droppedSendAnswers: 0 };
  const server: Server = createServer(async (req, res) => {
    counts.requests++;
    const body = await readBody(req).catch(() => undefined);
    if (!body) return;
    const roll = random();
    if (roll < (faults.dropRate ?? 0)) {
      counts.drops++;
      req.socket.destroy();
      return;
    }
    if (roll < (faults.dropRate ?? 0) + (faults.errorRate ?? 0)) {
      counts.errors++;
      res.writeHead(502, { "content-type": "text/plain" }).end("Bad Gateway (injected)");
      return;
    }
    if (random() < (faults.delayRate ?? 0)) {
      counts.delays++;
      await new Promise((resolve) => setTimeout(resolve, faults.delayMs ?? 1_000));
    }
    let answer: Response;
    try {
      answer = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body });
    } catch {
      res.writeHead(502).end("Bad Gateway (the node did not answer)");
      return;
    }
    const text = await answer.text();
    if (sendsTransaction(body) && random() < (faults.dropSendAnswerRate ?? 0)) {
      counts.droppedSendAnswers++;
      req.socket.destroy(); // the node has it; the client never hears so
      return;
    }
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    setFaults(next) {
      faults = { ...faults, ...next };
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [upstream, port] = process.argv.slice(2);
  if (!upstream) throw new Error("usage: rpc-fault-proxy.ts <upstream URL> [port]");
  const rate = (name: string) => Number(process.env[name] ?? 0);
  const proxy = await startRpcFaultProxy(upstream, {
    port: port ? Number(port) : undefined,
    errorRate: rate("RPC_FAULT_ERROR_RATE"),
    dropRate: rate("RPC_FAULT_DROP_RATE"),
    delayRate: rate("RPC_FAULT_DELAY_RATE"),
    delayMs: rate("RPC_FAULT_DELAY_MS") || undefined,
    dropSendAnswerRate: rate("RPC_FAULT_DROP_SEND_ANSWER_RATE"),
  });
  process.stdout.write(`fault proxy ${proxy.url} -> ${upstream}\n`);
  process.on("SIGINT", () => {
    process.stdout.write(`${JSON.stringify(proxy.counts)}\n`);
    void proxy.stop().then(() => process.exit(0));
  });
}
