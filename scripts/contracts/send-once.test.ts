import { createPublicClient, HttpRequestError, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { transactionsFrom } from "../../test/support/deployer-transactions.ts";
import { ephemeralChain } from "../../test/support/ephemeral-chain.ts";
import { startRpcFaultProxy } from "../chaos/rpc-fault-proxy.ts";
import { ANVIL_FUNDER_KEY } from "../infra/anvil.ts";
import { isTransient, retrying } from "../infra/retry.ts";
import { broadcast, NonceTaken, receiptOf, signNext } from "./send-once.ts";

describe("retrying start-up calls", () => {
  it("tries a call again after a fault of the connection, with a growing pause, and fails at once on a verdict", async () => {
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw new HttpRequestError({ url: "http://127.0.0.1", status: 502 });
      return "ok";
    };
    const retried: number[] = [];
    const options = { firstDelayMs: 5, onRetry: (_: string, attempt: number) => retried.push(attempt) };
    expect(await retrying("a call", flaky, options)).toBe("ok");
    expect(retried).toEqual([1, 2]);

    calls = 0;
    const verdict = async () => {
      calls++;
      throw new Error("execution reverted");
    };
    await expect(retrying("a call", verdict, options)).rejects.toThrow(/reverted/);
    expect(calls).toBe(1);

    const down = async () => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:1") });
    };
    await expect(retrying("a call", down, { ...options, attempts: 3 })).rejects.toThrow(/fetch failed/);
  });

  it("tells a fault of the connection from the node's answer", () => {
    expect(isTransient(new HttpRequestError({ url: "u", status: 502 }))).toBe(true);
    expect(isTransient(new HttpRequestError({ url: "u", cause: new TypeError("fetch failed") }))).toBe(true);
    expect(isTransient(new HttpRequestError({ url: "u", status: 400 }))).toBe(false);
    expect(isTransient(new Error("eth_chainId: HTTP 503 from http://127.0.0.1:1"))).toBe(true);
    expect(isTransient(new Error("nonce too low"))).toBe(false);
  });
});

describe("a transaction sent once through a flaky node", () => {
  const local = ephemeralChain("send-once");
  let client: PublicClient;
  const account = privateKeyToAccount(ANVIL_FUNDER_KEY);
  const call = { to: "0x00000000000000000000000000000000000000bb", data: "0x1234" } as const;
  beforeAll(async () => {
    client = createPublicClient({ transport: http(local.node.rpcUrl) });
  });

  it("lands once when its answers are lost and its bytes are sent again", async () => {
    const proxy = await startRpcFaultProxy(local.node.rpcUrl, { dropSendAnswerRate: 1 });
    try {
      const before = (await transactionsFrom(local.node.rpcUrl, account.address)).length;
      const flaky = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
      const tx = await signNext(flaky, account, local.node.chainId, call);
      const retry = { attempts: 3, firstDelayMs: 5 };
      await expect(broadcast(flaky, tx, retry)).rejects.toThrow(); // every answer lost: the sender cannot know
      proxy.setFaults({ dropSendAnswerRate: 0 });
      await broadcast(flaky, tx, retry); // the node knows it already (mined): that is a success
      const receipt = await receiptOf(flaky, tx, account.address, { retry });
      expect(receipt.status).toBe("success");
      expect(proxy.counts.droppedSendAnswers).toBe(3);
      expect((await transactionsFrom(local.node.rpcUrl, account.address)).length).toBe(before + 1);
    } finally {
      await proxy.stop();
    }
  });

  it("says so when another transaction took its nonce, so the step is signed anew", async () => {
    const lost = await signNext(client, account, local.node.chainId, call);
    // Signed again after a stop: at the same nonce while it is free (only one of the two can land)...
    expect((await signNext(client, account, local.node.chainId, call, { nonce: lost.nonce })).nonce).toBe(lost.nonce);
    const other = await signNext(client, account, local.node.chainId, { ...call, data: "0x5678" });
    await broadcast(client, other);
    await receiptOf(client, other, account.address); // anvil answers the send before it mines the block
    // ...and at the next one once another transaction took it.
    expect((await signNext(client, account, local.node.chainId, call, { nonce: lost.nonce })).nonce).toBe(
      lost.nonce + 1,
    );
    await expect(receiptOf(client, lost, account.address, { resendMs: 0, timeoutMs: 5_000 })).rejects.toThrow(
      NonceTaken,
    );
  });
});
