import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestClient, createWalletClient, type Hex, http, parseEther, type TestClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ANVIL_FUNDER_KEY, type Chain, startChain } from "../../scripts/infra/anvil.ts";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { freePort } from "../../test/support/free-port.ts";
import { type LoopbackServer, loopbackServer } from "../../test/support/loopback-server.ts";
import { receiptsOfMined } from "../worker/receipts.ts";
import { blockReceiptsOf, createBlockReceipts } from "./block-receipts.ts";
import { type ChainService, createChainService } from "./chain-service.ts";

/** The JSON-RPC methods the node was asked, counted by a loopback proxy in front of anvil (batches included). */
const calls = new Map<string, number>();
/** While set, the proxy answers eth_getBlockReceipts as a node without it does (-32601). */
let refuseBlockReceipts = false;

let node: Chain;
let dataDir: string;
let proxy: LoopbackServer;
let proxyUrl: string;
let testClient: TestClient;
const account = privateKeyToAccount(ANVIL_FUNDER_KEY);
let nonce = 0;
/** Each transfer goes to an address of its own: a transfer sent again after a revert is another transaction. */
let recipient = 0x1000; // past the precompiles (a transfer to one may revert)

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "block-receipts-"));
  node = await startChain({ dataDir, port: await freePort(), ephemeral: true });
  proxy = await loopbackServer(async (_, body, response) => {
    const parsed = JSON.parse(body) as { id: number; method: string } | { id: number; method: string }[];
    const list = Array.isArray(parsed) ? parsed : [parsed];
    for (const { method } of list) calls.set(method, (calls.get(method) ?? 0) + 1);
    if (refuseBlockReceipts && list.some((c) => c.method === "eth_getBlockReceipts")) {
      const refuse = (c: { id: number }) => ({ jsonrpc: "2.0", id: c.id, error: { code: -32601, message: "no" } });
      const forwarded = list.filter((c) => c.method !== "eth_getBlockReceipts");
      const answers = forwarded.length ? await forward(JSON.stringify(forwarded)) : [];
      const byId = new Map((answers as { id: number }[]).map((a) => [a.id, a]));
      const all = list.map((c) => (c.method === "eth_getBlockReceipts" ? refuse(c) : byId.get(c.id)));
      return response.end(JSON.stringify(Array.isArray(parsed) ? all : all[0]));
    }
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(await forward(body)));
  });
  proxyUrl = proxy.url;
  testClient = createTestClient({ mode: "anvil", transport: http(node.rpcUrl) });
  await testClient.setAutomine(false);
}, 60_000);

const forward = async (body: string) =>
  (await fetch(node.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body })).json();

afterAll(async () => {
  await proxy?.close();
  await node?.stop();
  if (dataDir) removeDataDir(dataDir);
});

beforeEach(() => {
  calls.clear();
  refuseBlockReceipts = false;
});

/** `count` transfers from the funder, sent straight to anvil (not counted), in nonce order; their hashes. */
async function send(count: number): Promise<Hex[]> {
  const wallet = createWalletClient({ account, transport: http(node.rpcUrl) });
  const hashes: Hex[] = [];
  for (let i = 0; i < count; i++) {
    hashes.push(
      await wallet.sendTransaction({
        chain: null,
        to: `0x${(++recipient).toString(16).padStart(40, "0")}`,
        value: parseEther("0.001"),
        nonce: nonce++,
        gas: 21_000n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1n,
      }),
    );
  }
  return hashes;
}

const chainService = (): ChainService => createChainService(proxyUrl, node.chainId);
const rowsOf = (hashes: Hex[]) => hashes.map((transactionHash) => ({ transactionHash, replacedHashes: [] }));

describe("the block-receipt watcher", () => {
  it("finds N writes mined in one block with one eth_getBlockReceipts, not N receipt calls", async () => {
    const chain = chainService();
    await blockReceiptsOf(chain).sync(); // a running watcher (its first block read before the writes were sent)
    const hashes = await send(8);
    await testClient.mine({ blocks: 1 });
    calls.clear();
    // Four signers' confirmation runs polling at once, two writes each: they share the watcher's reads.
    const runs = [0, 2, 4, 6].map((i) => receiptsOfMined(chain, rowsOf(hashes.slice(i, i + 2))));
    const receipts = (await Promise.all(runs)).flat();
    expect(receipts.map((r) => r?.transactionHash)).toEqual(hashes);
    expect(calls.get("eth_getBlockByNumber")).toBeLessThanOrEqual(2); // one head read, and one queued behind it
    expect(new Set(receipts.map((r) => r?.blockHash)).size).toBe(1);
    expect(calls.get("eth_getBlockReceipts")).toBe(1);
    expect(calls.get("eth_getTransactionReceipt")).toBeUndefined();
    // The next poll of any run (the same watcher): no new block, so only the head is read.
    calls.clear();
    await receiptsOfMined(chain, rowsOf(hashes));
    expect(Object.fromEntries(calls)).toEqual({ eth_getBlockByNumber: 1 });
  });

  it("reads a block mined on demand at once, with no following block, and every block since its last read", async () => {
    const watcher = createBlockReceipts(chainService().client);
    await watcher.sync();
    const [first] = await send(1);
    await testClient.mine({ blocks: 1 });
    const [second] = await send(1);
    await testClient.mine({ blocks: 1 });
    const [third] = await send(1);
    await testClient.mine({ blocks: 1 }); // the head: no block after it
    await watcher.sync();
    expect([first, second, third].map((h) => watcher.receipt(h)?.status)).toEqual(["success", "success", "success"]);
  });

  it("asks the node per hash for a write mined before its first block (a restart)", async () => {
    const [early] = await send(1);
    await testClient.mine({ blocks: 2 });
    const chain = chainService(); // a new process's watcher: it never read that block
    calls.clear();
    const [receipt] = await receiptsOfMined(chain, rowsOf([early]));
    expect(receipt?.transactionHash).toBe(early);
    expect(calls.get("eth_getTransactionReceipt")).toBe(1);
  });

  it("finds a fee-bumped write by a replaced hash", async () => {
    const chain = chainService();
    await blockReceiptsOf(chain).sync();
    const [mined] = await send(1);
    await testClient.mine({ blocks: 1 });
    calls.clear();
    const current = `0x${"ab".repeat(32)}` as Hex; // the bump that lost: never mined
    const [receipt] = await receiptsOfMined(chain, [{ transactionHash: current, replacedHashes: [mined] }]);
    expect(receipt?.transactionHash).toBe(mined);
    expect(calls.get("eth_getTransactionReceipt")).toBeUndefined();
  });

  it("replaces a block's receipts when a reorg puts another block at its number, and forgets a reverted one", async () => {
    const watcher = createBlockReceipts(chainService().client);
    await watcher.sync();
    const snapshot = await testClient.snapshot();
    const [gone] = await send(1);
    await testClient.mine({ blocks: 1 });
    await watcher.sync();
    const before = watcher.receipt(gone);
    expect(before).toBeDefined();

    await testClient.revert({ id: snapshot });
    const again = await testClient.snapshot();
    nonce--; // the reverted transfer's nonce is free again
    const [instead] = await send(1);
    await testClient.mine({ blocks: 1 }); // the same number, another block
    await watcher.sync();
    expect(watcher.receipt(gone)).toBeUndefined();
    const after = watcher.receipt(instead);
    expect(after?.blockNumber).toBe(before?.blockNumber);
    expect(after?.blockHash).not.toBe(before?.blockHash);

    await testClient.revert({ id: again }); // a shorter chain
    nonce--;
    await watcher.sync();
    expect(watcher.receipt(instead)).toBeUndefined();
  });

  it("re-reads the blocks below the head that a deeper reorg replaced", async () => {
    const watcher = createBlockReceipts(chainService().client);
    await watcher.sync();
    const snapshot = await testClient.snapshot();
    const [gone] = await send(1);
    await testClient.mine({ blocks: 2 });
    await watcher.sync();
    expect(watcher.receipt(gone)).toBeDefined();
    await testClient.revert({ id: snapshot });
    nonce--;
    await testClient.mine({ blocks: 1 });
    const [instead] = await send(1);
    await testClient.mine({ blocks: 2 }); // a longer chain whose first block no longer holds `gone`
    await watcher.sync();
    expect(watcher.receipt(gone)).toBeUndefined();
    expect(watcher.receipt(instead)).toBeDefined();
  });

  it("keeps only the newest blocks", async () => {
    const watcher = createBlockReceipts(chainService().client, 3);
    await watcher.sync();
    const [old] = await send(1);
    await testClient.mine({ blocks: 1 });
    await watcher.sync();
    expect(watcher.receipt(old)).toBeDefined();
    for (let i = 0; i < 3; i++) {
      await testClient.mine({ blocks: 1 });
      await watcher.sync();
    }
    expect(watcher.heldBlocks()).toHaveLength(3);
    expect(watcher.receipt(old)).toBeUndefined();
  });

  it("asks per hash on a node that refuses eth_getBlockReceipts", async () => {
    refuseBlockReceipts = true;
    const chain = chainService();
    await blockReceiptsOf(chain).sync();
    const hashes = await send(2);
    await testClient.mine({ blocks: 1 });
    const receipts = await receiptsOfMined(chain, rowsOf(hashes));
    expect(receipts.map((r) => r?.transactionHash)).toEqual(hashes);
    expect(calls.get("eth_getTransactionReceipt")).toBe(2);
    // Turned off for good: later polls read no head either.
    calls.clear();
    await receiptsOfMined(chain, rowsOf(hashes));
    expect(Object.fromEntries(calls)).toEqual({ eth_getTransactionReceipt: 2 });
  });
});
