import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minesPerTransaction } from "../../host/chain/mines-per-transaction.ts";
import { rpcCall } from "../../scripts/infra/anvil.ts";
import { ephemeralChain } from "../support/ephemeral-chain.ts";
import { type LoopbackServer, loopbackServer } from "../support/loopback-server.ts";

describe("minesPerTransaction", () => {
  const local = ephemeralChain("mines-per-transaction", { mining: "interval", blockTimeSeconds: 1 });
  let plain: LoopbackServer;

  beforeAll(async () => {
    // A node without development methods, as a real chain's: every method unknown.
    plain = await loopbackServer((_, body, response) => {
      const { id } = JSON.parse(body);
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: "the method does not exist" } }),
      );
    });
  });
  afterAll(() => plain?.close());

  it("asks the node each time: anvil mining by interval, then switched to a block per transaction", async () => {
    const client = createPublicClient({ transport: http(local.node.rpcUrl) });
    expect(await minesPerTransaction(client)).toBe(false);
    await rpcCall(local.node.rpcUrl, "evm_setAutomine", [true]);
    expect(await minesPerTransaction(client)).toBe(true);
    await rpcCall(local.node.rpcUrl, "evm_setAutomine", [false]);
    expect(await minesPerTransaction(client)).toBe(false);
  });

  it("is false for a node without the method", async () => {
    const client = createPublicClient({ transport: http(plain.url, { retryCount: 0 }) });
    expect(await minesPerTransaction(client)).toBe(false);
    expect(await minesPerTransaction(client)).toBe(false);
  });
});
