// Requests per second and p50/p99 of an authenticated collection GET under autocannon, beside a bare Hono route.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
// @ts-expect-error autocannon 8 ships no type declarations; the shape used here is typed below.
import autocannonUntyped from "autocannon";
import { Hono } from "hono";
import { bootStack, json, waitForTerminal } from "../test/support/stack.ts";

const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const MINTS = 50;
const LIST = "/api/v2/transaction-requests?page[limit]=50";
const CONNECTIONS = 32;
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);

/** The part of autocannon's result (an hdr-histogram-percentiles-obj per histogram) read here. */
interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface Result {
  requests: Histogram;
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Options = { url: string; connections: number; duration: number; headers?: Record<string, string> };
const autocannon = autocannonUntyped as (options: Options) => Promise<Result>;

/** A short warm-up (JIT, pool connections), then the measured run with the same settings. */
async function load(url: string, headers: Record<string, string> = {}): Promise<Result> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP_SECONDS });
  return autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS });
}

function line(name: string, r: Result): string {
  const codes = Object.entries(r.statusCodeStats)
    .map(([code, { count }]) => `${code}x${count}`)
    .join(" ");
  return `  ${name}: ${r.requests.average.toFixed(0)} req/s, p50=${r.latency.p50} ms p99=${r.latency.p99} ms, non-2xx=${r.non2xx} errors=${r.errors} (timeouts ${r.timeouts}) [${codes}]`;
}

async function startBare() {
  const app = new Hono().get("/ping", (c) => c.json({ ok: true, service: "bench" }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/ping`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export async function benchApiThroughput(): Promise<void> {
  const stack = await bootStack({ API_KEY_RATE_LIMIT: "100000000", HOST: "127.0.0.1" });
  const bare = await startBare();
  try {
    const createRes = await stack.api("/api/v2/tokens", {
      method: "POST",
      body: JSON.stringify({ templateId: "deposit", name: "Throughput", symbol: "THRU" }),
    });
    if (createRes.status !== 202) throw new Error(`token create: ${createRes.status} ${await createRes.text()}`);
    const created = await json(createRes);
    const token = (await waitForTerminal(stack, created.statusUrl)).result.tokenAddress as string;
    const statusUrls: string[] = [];
    for (let i = 0; i < MINTS; i++) {
      const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        body: JSON.stringify({ recipients: [RECIPIENT], amounts: [String(1000 + i)] }),
      });
      if (res.status !== 202) throw new Error(`mint ${i}: ${res.status} ${await res.text()}`);
      statusUrls.push((await json(res)).statusUrl);
    }
    for (const url of statusUrls) await waitForTerminal(stack, url);

    const probe = await stack.api(LIST);
    const body = await json(probe);
    if (probe.status !== 200 || body.data?.length !== 50 || !(body.meta?.total >= 50) || !body.meta?.facets)
      throw new Error(`${LIST} is not a 50-row page with total and facets: ${probe.status} ${JSON.stringify(body)}`);
    const bytes = JSON.stringify(body).length;

    const authenticated = await load(`${stack.platform.baseUrl}${LIST}`, {
      "x-api-key": stack.platform.credentials.apiKey,
    });
    const plain = await load(bare.url);
    if (authenticated.non2xx > 0 || authenticated.errors > 0)
      throw new Error(
        `Authenticated run not clean, its figures mean nothing:\n${line("authenticated", authenticated)}`,
      );
    if (plain.non2xx > 0 || plain.errors > 0) throw new Error(`Bare run not clean:\n${line("bare", plain)}`);

    console.log(
      `api throughput (autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s after ${WARMUP_SECONDS} s warm-up, loopback, same process)`,
    );
    console.log(line(`GET ${LIST} (API key, ${body.meta.total} rows in total, ${bytes} B body)`, authenticated));
    console.log(line("GET /ping on a bare Hono app", plain));
    console.log(
      `  authenticated / bare req/s: ${(authenticated.requests.average / plain.requests.average).toFixed(3)} (${(plain.requests.average / authenticated.requests.average).toFixed(1)}x slower)`,
    );
  } finally {
    await bare.close();
    await stack.stop();
  }
}
