// eth_getUserOperationByHash and eth_getUserOperationReceipt on a chain: the mempool row says where the operation
// went, the chain says what happened (the bundle's receipt and its UserOperationEvent). An operation this bundler
// never saw is looked up in the EntryPoints' logs of the latest BUNDLER_RECEIPT_LOOKBACK_BLOCKS blocks, and read back
// from its bundle's handleOps calldata.
import {
  decodeAbiParameters,
  decodeFunctionData,
  encodeEventTopics,
  getAddress,
  type Hex,
  type RpcLog,
  type RpcTransaction,
  type RpcTransactionReceipt,
} from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { batchLoader } from "../../host/cache/batch-loader.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { bundlerState } from "./bundler-state.ts";
import { delegateOf, isEip7702Factory } from "./eip7702.ts";
import { servedEntryPointAt, servedEntryPoints } from "./entry-points.ts";
import type { BundlerSettings } from "./settings.ts";
import { bundlerDb } from "./tables.ts";
import { rpcForm, toUserOperation, unpacked, userOpHash } from "./user-operation.ts";

type LookupContext = PluginContext<never, BundlerSettings>;

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

/** The blocks a lookup searches: the latest `window` ones (from block 0 on a younger chain). */
export function lookbackRange(latest: bigint, window: number): { fromBlock: Hex; toBlock: Hex } {
  const from = latest - BigInt(window) + 1n;
  return { fromBlock: `0x${(from > 0n ? from : 0n).toString(16)}`, toBlock: `0x${latest.toString(16)}` };
}

/** The UserOperationEvent of `hash` from any served EntryPoint in the lookback window. */
async function eventInWindow(ctx: LookupContext, on: ServedChain, hash: Hex): Promise<RpcLog | undefined> {
  const address = servedEntryPoints(on.deployment).map((entryPoint) => entryPoint.address);
  if (address.length === 0) return undefined;
  const range = lookbackRange(await on.client.getBlockNumber(), ctx.settings.BUNDLER_RECEIPT_LOOKBACK_BLOCKS);
  const logs = await on.client.request({
    method: "eth_getLogs",
    params: [{ address, ...range, topics: [topicOf("UserOperationEvent"), hash] }],
  });
  return (logs as RpcLog[])[0];
}

/** The bundle transaction that carries `hash` and its EntryPoint: from the mempool, else from the EntryPoints' logs. */
async function bundleTransaction(ctx: LookupContext, on: ServedChain, hash: Hex) {
  const row = await locate(ctx, on, hash);
  if (row) return { entryPoint: row.entryPoint, transactionHash: row.transactionHash as Hex | null };
  const found = await eventInWindow(ctx, on, hash);
  return found ? { entryPoint: found.address, transactionHash: found.transactionHash as Hex } : undefined;
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

export async function userOperationReceipt(ctx: LookupContext, on: ServedChain, hash: Hex) {
  const found = await bundleTransaction(ctx, on, hash);
  if (!found?.transactionHash) return null;
  const receipt = await rawReceipt(ctx, on, found.transactionHash);
  if (!receipt) return null;
  const located = operationLogs(receipt, hash, found.entryPoint);
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
    entryPoint: getAddress(event.address),
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

export async function userOperationByHash(ctx: LookupContext, on: ServedChain, hash: Hex) {
  const row = await locate(ctx, on, hash);
  if (!row) return minedElsewhere(ctx, on, hash);
  const receipt = row.transactionHash ? await rawReceipt(ctx, on, row.transactionHash as Hex) : null;
  const mined = receipt && operationLogs(receipt, hash, row.entryPoint) ? receipt : null;
  return {
    userOperation: rpcForm(row.userOperation),
    entryPoint: getAddress(row.entryPoint),
    transactionHash: mined?.transactionHash ?? null,
    blockHash: mined?.blockHash ?? null,
    blockNumber: mined?.blockNumber ?? null,
  };
}

/** An operation another bundler mined in the lookback window: read from its bundle's handleOps calldata (null when
 * the bundle called the EntryPoint through another contract). */
async function minedElsewhere(ctx: LookupContext, on: ServedChain, hash: Hex) {
  const event = await eventInWindow(ctx, on, hash);
  const entryPoint = event && servedEntryPointAt(on.deployment, event.address);
  if (!event || !entryPoint) return null;
  const transaction = (await on.client.request({
    method: "eth_getTransactionByHash",
    params: [event.transactionHash as Hex],
  })) as RpcTransaction | null;
  if (!transaction || transaction.to?.toLowerCase() !== event.address.toLowerCase()) return null;
  let ops: ReturnType<typeof unpacked>[];
  try {
    const call = decodeFunctionData({ abi: entryPoint08Abi, data: transaction.input }); // v0.7's handleOps alike
    if (call.functionName !== "handleOps") return null;
    ops = call.args[0].map(unpacked);
  } catch {
    return null;
  }
  // An EIP-7702 sender's hash names its delegate: the one its code names now.
  const delegateOfSender = async (candidate: (typeof ops)[number]) =>
    isEip7702Factory(candidate.factory)
      ? delegateOf(await on.client.getCode({ address: candidate.sender as Hex }))
      : undefined;
  const delegates = await Promise.all(ops.map(delegateOfSender));
  const op = ops.find(
    (candidate, i) =>
      userOpHash(toUserOperation(candidate), on.chainId, entryPoint, delegates[i]) === hash.toLowerCase(),
  );
  if (!op) return null;
  return {
    userOperation: rpcForm(op),
    entryPoint: entryPoint.address,
    transactionHash: event.transactionHash,
    blockHash: event.blockHash,
    blockNumber: event.blockNumber,
  };
}
