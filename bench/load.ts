// HTTP load for the API benchmarks: autocannon with a warm-up, a bare Hono route to compare with, and one line of
// figures per target.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

export const CONNECTIONS = 32;
export const WARMUP_SECONDS = 2;
export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);

/** How the figures were taken, for a benchmark's heading. */
export const LOAD_CONDITIONS = `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s after ${WARMUP_SECONDS} s warm-up, loopback, load from a child process`;

/** The part of autocannon's result (an hdr-histogram-percentiles-obj per histogram) read here. */
interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
export interface LoadResult {
  requests: Histogram;
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

const CLI = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

/**
 * One autocannon run in a process of its own: the load generator's CPU stays off the event loop of the host under
 * test (which runs in this process), as a real client's would.
 */
function autocannon(url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult> {
  const args = [CLI, "-j", "-c", String(CONNECTIONS), "-d", String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`autocannon exited with ${code}`)),
    );
  });
}

/** A short warm-up (JIT, pool connections), then the measured run with the same settings. */
export async function load(url: string, headers: Record<string, string> = {}): Promise<LoadResult> {
  await autocannon(url, headers, WARMUP_SECONDS);
  return autocannon(url, headers, DURATION_SECONDS);
}

/** Throws when a run had errors or non-2xx answers: its figures would mean nothing. */
export function assertClean(name: string, r: LoadResult): void {
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`${name} run not clean, its figures mean nothing:\n${line(name, r)}`);
}

export function line(name: string, r: LoadResult): string {
  const codes = Object.entries(r.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}x${count}`)
    .join(" ");
  return `  ${name}: ${r.requests.average.toFixed(0)} req/s, p50=${r.latency.p50} ms p99=${r.latency.p99} ms, non-2xx=${r.non2xx} errors=${r.errors} (timeouts ${r.timeouts}) [${codes}]`;
}

/** A bare Hono app with one route, in this process, on a free loopback port. */
export async function startBare() {
  const app = new Hono().get("/ping", (c) => c.json({ ok: true, service: "bench" }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/ping`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
