// eth_getUserOperationByHash and eth_getUserOperationReceipt on a chain: the mempool row says where the operation
// went, the chain says what happened (the bundle's receipt and its UserOperationEvent). An operation this bundler
// never saw is looked up in the EntryPoint's logs.
import {
  type Address,
  decodeAbiParameters,
  encodeEventTopics,
  type Hex,
  type RpcLog,
  type RpcTransactionReceipt,
} from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { batchLoader } from "../../host/cache/batch-loader.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { bundlerState } from "./bundler-state.ts";
import { bundlerDb } from "./tables.ts";
import { rpcForm } from "./user-operation.ts";

/** Where a mempool operation went: its row and its bundle's transaction hash (null before it is signed). */
interface Located {
  userOpHash: string;
  userOperation: Record<string, unknown>;
  entryPoint: string;
  status: string;
  transactionHash: string | null;
}

async function locateAll(ctx: PluginContext, chainId: number, hashes: string[]): Promise<Map<string, Located>> {
  const rows = await bundlerDb(ctx.db.platform)
    .selectFrom("bundlerUserOperations as o")
    .leftJoin("transactionRequests as r", "r.id", "o.transactionRequestId")
    .select(["o.userOpHash", "o.userOperation", "o.entryPoint", "o.status", "r.transactionHash"])
    .where("o.userOpHash", "in", hashes)
    .where("o.chainId", "=", chainId)
    .execute();
  return new Map(rows.map((row) => [row.userOpHash, row]));
}

export interface ChainLoaders {
  row: (hash: string) => Promise<Located | undefined>;
  receipt: (hash: Hex) => Promise<RpcTransactionReceipt | undefined>;
}

/** Per platform and chain: the mempool rows and the bundle receipts asked for in one turn, each read once (a client's
 * batch of receipt lookups is one query, and one eth_getTransactionReceipt per bundle). */
function loadersOf(ctx: PluginContext, on: ServedChain): ChainLoaders {
  const byChain = bundlerState(ctx).loaders;
  let found = byChain.get(on.chainId);
  if (!found) {
    // Kept for the process: the chain's own client, not the first request's (whose calls end with that request).
    const client = ctx.chains.get(on.chainId).client;
    found = {
      row: batchLoader((hashes: string[]) => locateAll(ctx, on.chainId, hashes)),
      receipt: batchLoader(async (hashes: Hex[]) => {
        const receipts = await Promise.all(
          hashes.map(
            (transactionHash) =>
              client.request({
                method: "eth_getTransactionReceipt",
                params: [transactionHash],
              }) as Promise<RpcTransactionReceipt | null>,
          ),
        );
        return new Map(hashes.flatMap((hash, i) => (receipts[i] ? [[hash, receipts[i]!] as const] : [])));
      }),
    };
    byChain.set(on.chainId, found);
  }
  return found;
}

const locate = (ctx: PluginContext, on: ServedChain, hash: Hex) => loadersOf(ctx, on).row(hash.toLowerCase());

const topicOf = (eventName: "UserOperationEvent" | "BeforeExecution" | "UserOperationRevertReason") =>
  encodeEventTopics({ abi: entryPoint08Abi, eventName })[0];

async function rawReceipt(ctx: PluginContext, on: ServedChain, transactionHash: Hex) {
  return (await loadersOf(ctx, on).receipt(transactionHash)) ?? null;
}

/** The bundle transaction that carries `hash`: from the mempool, else from the EntryPoint's logs. */
async function bundleTransaction(ctx: PluginContext, on: ServedChain, hash: Hex, entryPoint: Address | undefined) {
  const row = await locate(ctx, on, hash);
  if (row) return { row, transactionHash: row.transactionHash as Hex | null };
  if (!entryPoint) return undefined;
  const logs = await on.client.request({
    method: "eth_getLogs",
    params: [
      { address: entryPoint, fromBlock: "0x0", toBlock: "latest", topics: [topicOf("UserOperationEvent"), hash] },
    ],
  });
  const found = (logs as RpcLog[])[0];
  return found ? { row: undefined, transactionHash: found.transactionHash as Hex } : undefined;
}

/** The operation's UserOperationEvent in a receipt, and the logs its execution emitted (after the previous one's). */
function operationLogs(receipt: RpcTransactionReceipt, hash: Hex, entryPoint: string) {
  const fromEntryPoint = (log: RpcLog) => log.address.toLowerCase() === entryPoint.toLowerCase();
  const index = receipt.logs.findIndex(
    (log) =>
      fromEntryPoint(log) &&
      log.topics[0] === topicOf("UserOperationEvent") &&
      log.topics[1]?.toLowerCase() === hash.toLowerCase(),
  );
  if (index < 0) return undefined;
  let start = index;
  while (start > 0) {
    const before = receipt.logs[start - 1];
    if (
      fromEntryPoint(before) &&
      (before.topics[0] === topicOf("UserOperationEvent") || before.topics[0] === topicOf("BeforeExecution"))
    )
      break;
    start -= 1;
  }
  return { event: receipt.logs[index], logs: receipt.logs.slice(start, index) };
}

export async function userOperationReceipt(ctx: PluginContext, on: ServedChain, hash: Hex) {
  const { entryPoint } = on.deployment;
  const found = await bundleTransaction(ctx, on, hash, entryPoint);
  if (!found?.transactionHash) return null;
  const receipt = await rawReceipt(ctx, on, found.transactionHash);
  if (!receipt) return null;
  const at = found.row?.entryPoint ?? entryPoint ?? "";
  const located = operationLogs(receipt, hash, at);
  if (!located) return null;
  const { event, logs } = located;
  const [, , senderTopic, paymasterTopic] = event.topics;
  const word = (i: number) => `0x${event.data.slice(2 + 64 * i, 2 + 64 * (i + 1))}` as Hex;
  // UserOperationEvent(userOpHash, sender, paymaster indexed; nonce, success, actualGasCost, actualGasUsed)
  const success = BigInt(word(1)) === 1n;
  const revert = success
    ? undefined
    : receipt.logs.find(
        (log) =>
          log.topics[0] === topicOf("UserOperationRevertReason") && log.topics[1]?.toLowerCase() === hash.toLowerCase(),
      );
  return {
    userOpHash: hash,
    entryPoint: event.address,
    sender: `0x${senderTopic!.slice(26)}`,
    nonce: `0x${BigInt(word(0)).toString(16)}`,
    paymaster: `0x${paymasterTopic!.slice(26)}`,
    actualGasCost: `0x${BigInt(word(2)).toString(16)}`,
    actualGasUsed: `0x${BigInt(word(3)).toString(16)}`,
    success,
    // UserOperationRevertReason(userOpHash, sender indexed; nonce, revertReason): the reason is the bytes field.
    reason: revert ? decodeAbiParameters([{ type: "uint256" }, { type: "bytes" }], revert.data)[1] : "0x",
    logs,
    receipt,
  };
}

export async function userOperationByHash(ctx: PluginContext, on: ServedChain, hash: Hex) {
  const row = await locate(ctx, on, hash);
  if (!row) return null;
  const receipt = row.transactionHash ? await rawReceipt(ctx, on, row.transactionHash as Hex) : null;
  const mined = receipt && operationLogs(receipt, hash, row.entryPoint) ? receipt : null;
  return {
    userOperation: rpcForm(row.userOperation),
    entryPoint: on.deployment.entryPoint ?? row.entryPoint,
    transactionHash: mined?.transactionHash ?? null,
    blockHash: mined?.blockHash ?? null,
    blockNumber: mined?.blockNumber ?? null,
  };
}
