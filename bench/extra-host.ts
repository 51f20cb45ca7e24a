// A further host process's app on a booted stack's database and chain, served on a free loopback port, with its
// settings overridden (e.g. REQUEST_LOG_ENABLED=false): two such hosts compare one setting under the same load.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { secondHostApp } from "../test/support/second-host.ts";
import type { TestStack } from "../test/support/stack.ts";

export async function startExtraHost(stack: TestStack, overrides: Record<string, string>) {
  const { app, stop } = secondHostApp(stack, overrides);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await stop();
    },
  };
}
