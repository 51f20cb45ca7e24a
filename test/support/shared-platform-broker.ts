// The global setup's side of the shared platform (shared-stack.ts): a loopback server that boots the platform on its
// first request and answers every request with what a test process needs to reach it.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { bootStack, type TestStack } from "./stack.ts";

/** What a test process needs of the shared platform (its Platform, less what only the booting process holds). */
export interface SharedPlatform {
  dataDir: string;
  env: Record<string, string>;
  platform: Omit<TestStack["platform"], "config" | "stop">;
}

/** The settings that place a stack (its data dir and ports): the rest of a test process's environment is the same. */
const PLACEMENT = ["DATA_DIR", "PORT", "ANVIL_PORT", "PONDER_PORT", "EMBEDDED_POSTGRES_PORT", "LOG_LEVEL"];

/**
 * The shared platforms by name: `wall-clock` (the chain's clock follows the wall's) and `clock-moving` (for files that
 * move the chain's clock forward; only forward, so each such file reads times from the chain, never the wall). A
 * platform may be asked for per test worker (GET /<name>/<worker>): files that run at once then each have one.
 */
export const SHARED_PLATFORMS = ["wall-clock", "clock-moving"] as const;
export type SharedPlatformName = (typeof SHARED_PLATFORMS)[number];

/** Listens on a free loopback port (GET /<name>[/<worker>]); `stop` stops the platforms files asked for. */
export async function startSharedPlatformBroker(): Promise<{ url: string; stop(): Promise<void> }> {
  const booting = new Map<string, Promise<TestStack>>(); // by path: the name, and the worker if any
  const server = createServer((request, res) => {
    const path = (request.url ?? "").slice(1);
    const [name, worker, ...rest] = path.split("/");
    const known = (SHARED_PLATFORMS as readonly string[]).includes(name ?? "");
    if (!known || rest.length > 0 || (worker !== undefined && !/^\d+$/.test(worker)))
      return void res.writeHead(404).end(path);
    if (!booting.has(path)) booting.set(path, bootStack());
    booting.get(path)!.then(
      (stack) => {
        const { config: _config, stop: _stop, ...platform } = stack.platform;
        const env = Object.fromEntries(PLACEMENT.map((setting) => [setting, String(stack.env[setting])]));
        const shared: SharedPlatform = { dataDir: stack.dataDir, env, platform };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(shared));
      },
      (error) => res.writeHead(500).end(String(error?.stack ?? error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all(
        [...booting.values()].map((stack) =>
          stack.then(
            (running) => running.stop(),
            () => {},
          ),
        ),
      );
    },
  };
}
