import { keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ephemeralChain } from "../../test/support/ephemeral-chain.ts";
import { ANVIL_FUNDER_KEY, rpcCall } from "../infra/anvil.ts";
import { startRpcFaultProxy } from "./rpc-fault-proxy.ts";

const local = ephemeralChain("fault-proxy");

const post = (url: string, method: string, params: unknown[] = []) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });

describe("the fault-injecting JSON-RPC proxy", () => {
  it("passes answers through unchanged when told no faults", async () => {
    const proxy = await startRpcFaultProxy(local.node.rpcUrl);
    try {
      expect(await rpcCall(proxy.url, "eth_chainId")).toBe("0x7a69");
      expect(proxy.counts).toEqual({ requests: 1, errors: 0, drops: 0, delays: 0, droppedSendAnswers: 0 });
    } finally {
      await proxy.stop();
    }
  });

  it("answers 502, drops connections and delays, at the rates given", async () => {
    const proxy = await startRpcFaultProxy(local.node.rpcUrl, { errorRate: 1 });
    try {
      expect((await post(proxy.url, "eth_chainId")).status).toBe(502);
      proxy.setFaults({ errorRate: 0, dropRate: 1 });
      await expect(post(proxy.url, "eth_chainId")).rejects.toThrow(/fetch failed/);
      proxy.setFaults({ dropRate: 0, delayRate: 1, delayMs: 300 });
      const started = performance.now();
      expect((await post(proxy.url, "eth_chainId")).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect(proxy.counts).toMatchObject({ requests: 3, errors: 1, drops: 1, delays: 1 });

      proxy.setFaults({ delayRate: 0, errorRate: 0.1, dropRate: 0.03 });
      const outcomes = await Promise.all(
        Array.from({ length: 300 }, () =>
          post(proxy.url, "eth_blockNumber").then(
            (res) => res.status,
            () => "dropped",
          ),
        ),
      );
      const share = (what: unknown) => outcomes.filter((o) => o === what).length / outcomes.length;
      expect(share(502)).toBeGreaterThan(0.03);
      expect(share(502)).toBeLessThan(0.2);
      expect(share("dropped")).toBeLessThan(0.1);
      expect(share(200)).toBeGreaterThan(0.75);
    } finally {
      await proxy.stop();
    }
  });

  it("loses the answer of a raw transaction the node took", async () => {
    const proxy = await startRpcFaultProxy(local.node.rpcUrl, { dropSendAnswerRate: 1 });
    try {
      const account = privateKeyToAccount(ANVIL_FUNDER_KEY);
      const nonce = Number(
        await rpcCall<string>(local.node.rpcUrl, "eth_getTransactionCount", [account.address, "latest"]),
      );
      const raw = await account.signTransaction({
        chainId: 31337,
        nonce,
        to: account.address,
        gas: 21_000n,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 1n,
      });
      await expect(post(proxy.url, "eth_sendRawTransaction", [raw])).rejects.toThrow(/fetch failed/);
      // anvil answers a send before it mines the block: its receipt may come a moment later.
      let receipt: { status: string } | null = null;
      for (let tries = 0; !receipt && tries < 100; tries++) {
        receipt = await rpcCall(local.node.rpcUrl, "eth_getTransactionReceipt", [keccak256(raw)]);
        if (!receipt) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(receipt?.status).toBe("0x1"); // sent and mined: only its answer was lost
      expect(await rpcCall(proxy.url, "eth_chainId")).toBe("0x7a69"); // other calls are answered
      expect(proxy.counts.droppedSendAnswers).toBe(1);
    } finally {
      await proxy.stop();
    }
  });

  it("fronts loopback nodes only", async () => {
    await expect(startRpcFaultProxy("https://rpc.example.com")).rejects.toThrow(/loopback/);
  });
});
