// Random token workloads with chain reorganisations in between (fast-check arbitraries), and how each step is
// performed against a booted stack: writes through the REST API, reorgs and mining through anvil's test methods.
import fc from "fast-check";
import type { Hex } from "viem";
import { json, type TestStack } from "./stack.ts";

/** Holders by index; 0 is the organisation's signing wallet (the sender of plain transfers). */
export type Op =
  | { kind: "mint"; to: number; amount: number }
  | { kind: "burn"; from: number; amount: number }
  | { kind: "transfer"; to: number; amount: number }
  | { kind: "forced-transfer"; from: number; to: number; amount: number }
  | { kind: "freeze-address" | "unfreeze-address"; account: number }
  | { kind: "freeze-tokens" | "unfreeze-tokens"; account: number; amount: number }
  | { kind: "pause" | "unpause" }
  /** Replaces the newest `depth` blocks; the first `reinclude` removed transactions go back in, `offset` blocks in. */
  | { kind: "reorg"; depth: number; reinclude: number; offset: number }
  | { kind: "mine"; blocks: number };

export const HOLDERS = 4;

const holder = fc.integer({ min: 0, max: HOLDERS - 1 });
const amount = fc.integer({ min: 1, max: 40 });

export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("mint" as const), to: holder, amount }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("burn" as const), from: holder, amount }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("transfer" as const), to: holder, amount }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("forced-transfer" as const), from: holder, to: holder, amount }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("freeze-address", "unfreeze-address"), account: holder }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom("freeze-tokens", "unfreeze-tokens"), account: holder, amount }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("pause", "unpause") }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("reorg" as const),
      depth: fc.integer({ min: 1, max: 5 }),
      reinclude: fc.integer({ min: 0, max: 3 }),
      offset: fc.integer({ min: 0, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("mine" as const), blocks: fc.integer({ min: 1, max: 3 }) }) },
);

/** The API call of a write: its path under the token and its body. */
export function writeOf(op: Op, holders: string[]): { path: string; body?: object } | undefined {
  switch (op.kind) {
    case "mint":
      return { path: "mint", body: { recipients: [holders[op.to]], amounts: [String(op.amount)] } };
    case "burn":
      return { path: "burn", body: { holders: [holders[op.from]], amounts: [String(op.amount)] } };
    case "transfer":
      return { path: "transfer", body: { recipients: [holders[op.to]], amounts: [String(op.amount)] } };
    case "forced-transfer":
      return {
        path: "forced-transfer",
        body: { from: holders[op.from], to: holders[op.to], amount: String(op.amount) },
      };
    case "freeze-address":
    case "unfreeze-address":
      return { path: op.kind, body: { account: holders[op.account] } };
    case "freeze-tokens":
    case "unfreeze-tokens":
      return { path: op.kind, body: { account: holders[op.account], amount: String(op.amount) } };
    case "pause":
    case "unpause":
      return { path: op.kind };
    default:
      return undefined;
  }
}

/** What a write answered: completed (200) or refused by a rule (409/422). */
export interface WriteOutcome {
  status: number;
  code?: string;
  txHash?: Hex;
}

/**
 * Performs a write and waits for its outcome (Prefer: wait), so each signer's writes reach the chain one at a time in
 * nonce order. Anything but a completed write or a rule's refusal (a 5xx, a 504 for a write that never completes) is
 * a failure of the platform.
 */
export async function performWrite(
  stack: TestStack,
  token: string,
  write: { path: string; body?: object },
): Promise<WriteOutcome> {
  const res = await stack.api(`/api/v2/tokens/${token}/${write.path}`, {
    method: "POST",
    headers: { prefer: "wait=60" },
    ...(write.body ? { body: JSON.stringify(write.body) } : {}),
  });
  const body = await json(res);
  if (res.status === 200 && body.data?.status === "COMPLETED") return { status: 200, txHash: body.meta.txHashes[0] };
  if (res.status === 409 || res.status === 422) return { status: res.status, code: body.code };
  throw new Error(`POST ${write.path} ${JSON.stringify(write.body)} answered ${res.status}: ${JSON.stringify(body)}`);
}

/** A JSON-RPC call that fails on an error answer (the stack's `rpc` hides them). */
export async function strictRpc(stack: TestStack, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(stack.platform.credentials.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

interface RpcBlock {
  number: Hex;
  transactions: { hash: Hex }[];
}

/**
 * anvil_reorg: the newest `depth` blocks are replaced by as many new ones. anvil 1.7.1 does not return the removed
 * transactions to its pool; its second argument re-includes transactions, each `[raw signed bytes (or a request
 * object), block offset]`. A prefix (in chain order) of the removed ones goes back in, so nonces stay contiguous.
 * Returns the number of removed and re-included transactions.
 */
export async function reorg(stack: TestStack, op: Extract<Op, { kind: "reorg" }>) {
  const head = Number(BigInt((await strictRpc(stack, "eth_blockNumber")) as Hex));
  const removed: Hex[] = [];
  for (let n = head - op.depth + 1; n <= head; n++) {
    const block = (await strictRpc(stack, "eth_getBlockByNumber", [`0x${n.toString(16)}`, true])) as RpcBlock;
    for (const tx of block.transactions) removed.push(tx.hash);
  }
  const back = removed.slice(0, op.reinclude);
  const raws = await Promise.all(
    back.map(async (hash) => (await strictRpc(stack, "eth_getRawTransactionByHash", [hash])) as Hex),
  );
  const offset = Math.min(op.offset, op.depth - 1);
  await strictRpc(stack, "anvil_reorg", [op.depth, raws.map((raw) => [raw, offset])]);
  return { removed: removed.length, reincluded: back.length };
}
