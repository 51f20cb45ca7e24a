// Boots the whole platform (embedded PostgreSQL, anvil, indexer, host, worker) on free ports in a temp dir.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Platform, startPlatform } from "../../scripts/platform.ts";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface TestStack {
  platform: Platform;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** fetch against the host with the organisation's API key. */
  api(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  restart(): Promise<void>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export async function bootStack(overrides: Record<string, string> = {}): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), "platform-e2e-"));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    ANVIL_PORT: String(await freePort()),
    PONDER_PORT: String(await freePort()),
    EMBEDDED_POSTGRES_PORT: String(await freePort()),
    LOG_LEVEL: "warn",
    ...overrides,
  };
  const stack: TestStack = {
    platform: await startPlatform({ env }),
    dataDir,
    env,
    api(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      const apiKey = key === undefined ? stack.platform.credentials.apiKey : key;
      if (apiKey) headers.set("x-api-key", apiKey);
      if (rest.body && !headers.has("content-type")) headers.set("content-type", "application/json");
      return fetch(`${stack.platform.baseUrl}${path}`, { ...rest, headers });
    },
    async restart() {
      await stack.platform.stop();
      stack.platform = await startPlatform({ env });
    },
    async stop(options = {}) {
      await stack.platform.stop();
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
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
