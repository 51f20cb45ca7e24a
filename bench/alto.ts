// Pimlico's Alto, the bundler benchmark's peer: installed into bench/peers/alto on first use (its own package and
// lock file, so its heavy dependencies stay out of the platform's), started on loopback against the stack's anvil in
// unsafe mode (a trusted private node) with several executor keys, and stopped at the end.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Address, Hex } from "viem";
import { freePort } from "../test/support/stack.ts";

const PEER_DIR = join(import.meta.dirname, "peers", "alto");
const CLI = join(PEER_DIR, "node_modules", "@pimlico", "alto", "esm", "cli", "alto.js");

export interface AltoOptions {
  rpcUrl: string;
  entryPoints: Address[];
  /** Bundles are sent from each of them in parallel. */
  executorKeys: Hex[];
  /** Deploys Alto's simulation contracts on the chain at start. */
  utilityKey: Hex;
  port: number;
}

/** Alto's command line: unsafe mode, simulation contracts deployed by the utility key, bundling on a short timer. */
export function altoArguments(options: AltoOptions): string[] {
  return [
    "--entrypoints",
    options.entryPoints.join(","),
    "--executor-private-keys",
    options.executorKeys.join(","),
    "--utility-private-key",
    options.utilityKey,
    "--rpc-url",
    options.rpcUrl,
    "--port",
    String(options.port),
    "--safe-mode",
    "false",
    "--deploy-simulations-contract",
    "true",
    "--log-level",
    "warn",
  ];
}

/** `npm ci` of the peer's package when it is not installed yet (~1 min). */
export function installAlto(): void {
  if (existsSync(CLI)) return;
  console.log("installing Alto (bench/peers/alto, npm ci) ...");
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: PEER_DIR, stdio: ["ignore", "ignore", "inherit"] });
}

export interface Alto {
  url: string;
  stop(): Promise<void>;
}

export async function startAlto(options: Omit<AltoOptions, "port">): Promise<Alto> {
  installAlto();
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", join(PEER_DIR, "loopback.mjs"), CLI, ...altoArguments({ ...options, port })],
    { cwd: PEER_DIR, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, SENTRY_DSN: "" } },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopChild(child);
  try {
    await answering(url, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/** Waits until Alto answers eth_supportedEntryPoints (it deploys its simulation contracts first). */
async function answering(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Alto exited with ${child.exitCode} before answering`);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_supportedEntryPoints", params: [] }),
      });
      if (res.ok && Array.isArray(((await res.json()) as { result?: unknown }).result)) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Alto did not answer at ${url} within ${timeoutMs / 1000} s`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
