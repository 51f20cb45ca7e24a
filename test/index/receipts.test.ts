// The activity handlers' receipts (src/receipts.ts) against a real anvil, behind a proxy that records each JSON-RPC
// request: one eth_getBlockReceipts per block, the next block read ahead by number while consecutive blocks are
// asked, and a read-ahead block of another hash (a reorg) read anew by its hash.
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestClient, createWalletClient, type Hex, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_FUNDER_KEY, type Chain, rpcCall, startChain } from "../../scripts/infra/anvil.ts";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { transactionLogs } from "../../src/receipts.ts";
import { freePort } from "../support/stack.ts";

/** Init code that emits one anonymous log (LOG0 of no data) and deploys nothing. */
const EMIT_ONE_LOG: Hex = "0x60006000a000";

describe("the indexer's receipts", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "receipts-test-"));
  let node: Chain;
  let proxy: Server;
  const requests: { method: string; params: unknown[] }[] = [];
  let client: ReturnType<typeof makeClient>;
  const makeClient = (url: string) =>
    createWalletClient({ account: privateKeyToAccount(ANVIL_FUNDER_KEY), transport: http(url) }).extend(publicActions);

  beforeAll(async () => {
    node = await startChain({ dataDir, port: await freePort() });
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString();
      for (const call of [JSON.parse(body)].flat()) requests.push({ method: call.method, params: call.params });
      const answer = await fetch(node.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    process.env.PONDER_CHAINS = JSON.stringify([
      { rpcUrl: url, deployment: { chainId: node.chainId, systemFactory: `0x${"0".repeat(40)}`, startBlock: 0 } },
    ]);
    client = makeClient(node.rpcUrl);
  });
  afterAll(async () => {
    proxy?.close();
    await node?.stop();
    removeDataDir(dataDir);
  });

  /** A transaction in a block of its own (anvil mines each at once), as an indexed event sees it. */
  const mineOne = async () => {
    const hash = await client.sendTransaction({ chain: null, data: EMIT_ONE_LOG });
    const receipt = await client.waitForTransactionReceipt({ hash });
    return {
      event: { block: { hash: receipt.blockHash, number: receipt.blockNumber }, transaction: { hash } },
      logIndex: receipt.logs[0].logIndex,
    };
  };
  const receiptReads = () =>
    requests.filter((r) => r.method === "eth_getBlockReceipts").map((r) => String(r.params[0]));

  it("reads each block's receipts once, and the next block's ahead by number while blocks come in a row", async () => {
    const mined = [];
    for (let i = 0; i < 4; i++) mined.push(await mineOne());
    for (const { event, logIndex } of mined) {
      const logs = await transactionLogs(node.chainId, event);
      expect(logs.map((log) => log.logIndex)).toEqual([logIndex]);
      expect(await transactionLogs(node.chainId, event)).toBe(logs); // kept
    }
    const [b1, b2, b3, b4] = mined.map(({ event }) => event.block);
    // The first two by hash; from then on each read ahead by number as its predecessor is asked (the fifth is not
    // mined yet: answered null, unused).
    const heights = [b3.number, b4.number, b4.number + 1n].map((n) => `0x${n.toString(16)}`);
    expect(receiptReads().sort()).toEqual([b1.hash, b2.hash, ...heights].sort());
  });

  it("stops reading ahead for a while once a block read ahead is not mined yet (the index is at the chain's head)", async () => {
    requests.length = 0;
    for (const { event } of [await mineOne(), await mineOne()]) await transactionLogs(node.chainId, event);
    // Each by its hash (66 characters), none by number.
    expect(receiptReads().map((read) => read.length)).toEqual([66, 66]);
  });

  it("reads a block anew by its hash when the block read ahead at its height was reorganised away", async () => {
    const test = createTestClient({ mode: "anvil", transport: http(node.rpcUrl) });
    await test.mine({ blocks: 16 }); // past the pause
    requests.length = 0;
    const before = await rpcCall<Hex>(node.rpcUrl, "evm_snapshot");
    const [first, second, replaced] = [await mineOne(), await mineOne(), await mineOne()];
    await transactionLogs(node.chainId, first.event);
    await transactionLogs(node.chainId, second.event); // reads the next height ahead: the block about to be replaced
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiptReads()).toContain(`0x${replaced.event.block.number.toString(16)}`);
    // The same heights, other blocks.
    await rpcCall(node.rpcUrl, "evm_revert", [before]);
    await test.mine({ blocks: 2 });
    const reorged = await mineOne();
    expect(reorged.event.block.number).toBe(replaced.event.block.number);
    expect(reorged.event.block.hash).not.toBe(replaced.event.block.hash);
    const logs = await transactionLogs(node.chainId, reorged.event);
    expect(logs.map((log) => log.logIndex)).toEqual([reorged.logIndex]);
    expect(receiptReads()).toContain(reorged.event.block.hash);
  });
});
