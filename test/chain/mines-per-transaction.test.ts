import { createServer, type Server } from "node:http";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minesPerTransaction } from "../../host/chain/mines-per-transaction.ts";
import { rpcCall } from "../../scripts/infra/anvil.ts";
import { ephemeralChain } from "../support/ephemeral-chain.ts";

describe("minesPerTransaction", () => {
  const local = ephemeralChain("mines-per-transaction", { mining: "interval", blockTimeSeconds: 1 });
  let plain: Server;
  let plainUrl: string;

  beforeAll(async () => {
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
  afterAll(() => {
    plain?.close();
  });

  it("asks the node each time: anvil mining by interval, then switched to a block per transaction", async () => {
    const client = createPublicClient({ transport: http(local.node.rpcUrl) });
    expect(await minesPerTransaction(client)).toBe(false);
    await rpcCall(local.node.rpcUrl, "evm_setAutomine", [true]);
    expect(await minesPerTransaction(client)).toBe(true);
    await rpcCall(local.node.rpcUrl, "evm_setAutomine", [false]);
    expect(await minesPerTransaction(client)).toBe(false);
  });

  it("is false for a node without the method", async () => {
    const client = createPublicClient({ transport: http(plainUrl, { retryCount: 0 }) });
    expect(await minesPerTransaction(client)).toBe(false);
    expect(await minesPerTransaction(client)).toBe(false);
  });
});
