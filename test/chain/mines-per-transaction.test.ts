import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minesPerTransaction } from "../../host/chain/mines-per-transaction.ts";
import { rpcCall, startChain } from "../../scripts/infra/anvil.ts";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { freePort } from "../support/stack.ts";

describe("minesPerTransaction", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mines-per-transaction-"));
  let chain: Awaited<ReturnType<typeof startChain>>;
  let plain: Server;
  let plainUrl: string;

  beforeAll(async () => {
    chain = await startChain({
      dataDir,
      port: await freePort(),
      ephemeral: true,
      mining: "interval",
      blockTimeSeconds: 1,
    });
    // A node without development methods, as a real chain's: every method unknown.
    plain = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const { id } = JSON.parse(body);
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: "the method does not exist" } }));
      });
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    plainUrl = `http://127.0.0.1:${(plain.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await chain?.stop();
    plain?.close();
    removeDataDir(dataDir);
  });

  it("asks the node each time: anvil mining by interval, then switched to a block per transaction", async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    expect(await minesPerTransaction(client)).toBe(false);
    await rpcCall(chain.rpcUrl, "evm_setAutomine", [true]);
    expect(await minesPerTransaction(client)).toBe(true);
    await rpcCall(chain.rpcUrl, "evm_setAutomine", [false]);
    expect(await minesPerTransaction(client)).toBe(false);
  });

  it("is false for a node without the method", async () => {
    const client = createPublicClient({ transport: http(plainUrl, { retryCount: 0 }) });
    expect(await minesPerTransaction(client)).toBe(false);
    expect(await minesPerTransaction(client)).toBe(false);
  });
});
