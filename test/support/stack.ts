// Boots the whole platform (embedded PostgreSQL, anvil, indexer, host, worker) on free ports in a temp dir.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";
import { defineChain } from "viem";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { type Platform, startPlatform } from "../../scripts/platform.ts";
import { freeConsecutivePorts } from "./free-port.ts";
import { seedFromTemplate } from "./stack-template.ts";

export { freePort } from "./free-port.ts";

export interface TestStack {
  platform: Platform;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** fetch against the host with the organisation's API key (`key: null` and a cookie: as a same-origin page). */
  api(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  /** A JSON-RPC call to the stack's chain (anvil's test methods included); returns the result. */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  restart(): Promise<void>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface TestEnvOptions {
  /** Leave the data dir empty, so the first start initialises the database and deploys the contracts itself. */
  fresh?: boolean;
}

export interface BootOptions extends TestEnvOptions {
  /** Runs beside the start (the host listens on env.PORT before the index is ready); the boot waits for it too. */
  whileStarting?: (placed: { env: NodeJS.ProcessEnv; dataDir: string }) => Promise<void>;
}

/** A data directory (seeded from the run's stack template unless `fresh`) and free ports for one platform under test. */
export async function testEnv(
  overrides: Record<string, string> = {},
  options: TestEnvOptions = {},
): Promise<{ dataDir: string; env: NodeJS.ProcessEnv }> {
  const dataDir = mkdtempSync(join(tmpdir(), "platform-e2e-"));
  // One block of consecutive free ports for every listener, so that none lands on another's neighbour: host i listens
  // on PORT + i, embedded chain i on ANVIL_PORT + i.
  const hosts = Number(overrides.HOST_PROCESSES ?? 1);
  const chains = Number(overrides.EMBEDDED_CHAINS ?? 1);
  const first = await freeConsecutivePorts(hosts + chains + 2);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(first),
    ANVIL_PORT: String(first + hosts),
    PONDER_PORT: String(first + hosts + chains),
    EMBEDDED_POSTGRES_PORT: String(first + hosts + chains + 1),
    LOG_LEVEL: "warn",
    ...overrides,
  };
  if (!options.fresh) seedFromTemplate(dataDir, env);
  return { dataDir, env };
}

/** The platform database of a test environment (the embedded server). */
export function platformDbUrl(env: NodeJS.ProcessEnv): string {
  return `postgres://platform:platform@127.0.0.1:${env.EMBEDDED_POSTGRES_PORT}/platform`;
}

export async function bootStack(overrides: Record<string, string> = {}, options: BootOptions = {}): Promise<TestStack> {
  const { dataDir, env } = await testEnv(overrides, options);
  const [started, watched] = await Promise.allSettled([
    startPlatform({ env }),
    options.whileStarting?.({ env, dataDir }),
  ]);
  if (started.status === "rejected") throw started.reason;
  const platform = started.value;
  if (watched.status === "rejected") {
    await platform.stop(); // a failed watch must not leave the platform running
    throw watched.reason;
  }
  return stackFacade({
    platform,
    dataDir,
    env,
    async restart(stack) {
      await stack.platform.stop();
      stack.platform = await startPlatform({ env });
    },
    async stop(stack, options = {}) {
      await stack.platform.stop();
      if (!options.keepData) removeDataDir(dataDir);
    },
  });
}

/** A TestStack over a running platform: this file's own (bootStack) or the run's shared one (shared-stack.ts). */
export function stackFacade(input: {
  platform: Platform;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  restart(stack: TestStack): Promise<void>;
  stop(stack: TestStack, options?: { keepData?: boolean }): Promise<void>;
}): TestStack {
  const stack: TestStack = {
    platform: input.platform,
    dataDir: input.dataDir,
    env: input.env,
    api(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      const apiKey = key === undefined ? stack.platform.credentials.apiKey : key;
      if (apiKey) headers.set("x-api-key", apiKey);
      if (rest.body && !headers.has("content-type")) headers.set("content-type", "application/json");
      // With a session cookie, as a page of the API's own origin would send it (host/http/same-origin.ts).
      if (headers.has("cookie")) {
        if (!headers.has("origin")) headers.set("origin", stack.platform.baseUrl);
        const write = !["GET", "HEAD", "OPTIONS"].includes((rest.method ?? "GET").toUpperCase());
        if (write && !headers.has("content-type")) headers.set("content-type", "application/json");
      }
      return fetch(`${stack.platform.baseUrl}${path}`, { ...rest, headers });
    },
    async rpc(method, params = []) {
      const res = await fetch(stack.platform.credentials.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      return ((await res.json()) as { result: unknown }).result;
    },
    restart: () => input.restart(stack),
    stop: (options) => input.stop(stack, options),
  };
  return stack;
}

/** Creates a deposit token and waits for it (Prefer: wait); returns its address. */
export async function createDepositToken(stack: TestStack, name: string, symbol: string): Promise<`0x${string}`> {
  const res = await stack.api("/api/v2/tokens", {
    method: "POST",
    headers: { prefer: "wait=30" },
    body: JSON.stringify({ templateId: "deposit", name, symbol }),
  });
  if (res.status !== 200) throw new Error(`token creation answered ${res.status}: ${await res.text()}`);
  return (await json(res)).data.tokenAddress;
}

/** The organisation's primary custody EOA. */
export async function signerOf(db: pg.Client, organizationId: string): Promise<`0x${string}`> {
  const { rows } = await db.query(
    "select address from platform.wallets where organization_id = $1 and user_id is null order by created_at limit 1",
    [organizationId],
  );
  return rows[0].address;
}

/** A response body as the test reads it: any JSON shape. */
// biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON
export const json = (res: Response): Promise<any> => res.json();

/** Polls a transaction request until it reaches a terminal state. */
export async function waitForTerminal(stack: TestStack, statusUrl: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await stack.api(statusUrl);
    const body = await json(res);
    if (["COMPLETED", "FAILED", "DEAD_LETTER", "CANCELLED"].includes(body.data?.status)) return body.data;
    if (Date.now() > deadline)
      throw new Error(`Still ${body.data?.status} after ${timeoutMs} ms: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The stack's anvil as a viem chain, for tests that send transactions the API has no route for. */
export function stackChain(stack: TestStack) {
  const { chainId, rpcUrl } = stack.platform.credentials;
  return defineChain({
    id: chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
