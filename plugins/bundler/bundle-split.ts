// How a bundling run splits the pending operations of one EntryPoint over the organisation's executors, so that
// their bundles go out in parallel (each executor its own nonce stream in the host's pipeline):
// - a sender's operations all go into one bundle, in nonce order, each only after its predecessor (in the same
//   bundle, or already in a signed bundle of the same executor: that executor's lower nonce runs it first);
// - a sender with an operation in a bundle not yet mined stays on that bundle's executor: from another executor its
//   nonce n+1 could be mined before n, and the EntryPoint would refuse it (AA25) and revert the whole bundle;
// - the other senders go to the executors with nothing in flight, oldest sender first, each to the first of them
//   whose bundle is below the fill size (a bundle costs the same whatever it carries: a few operations make one
//   bundle, not one per executor), else to the least loaded; when all are busy, to the least loaded of all (its
//   bundle then waits behind the one in flight, as with one);
// - each bundle stays within the operation count and gas budget, and carries at most THROTTLED_ENTITY_BUNDLE_COUNT
//   operations naming one throttled paymaster or factory (ERC-7562 SREP-030); what does not fit waits for the next
//   run;
// - a paymaster's operations, in all the run's bundles together, may cost at most what its deposit still covers
//   (each at its maximum charge): bundles checked apart could otherwise together outspend it, and the later one
//   would revert on chain (AA31); the rest wait for the next run.

import { AUTHORIZATION_GAS } from "./gas.ts";
import { previousNonce } from "./queued-nonce.ts";
import { THROTTLED_ENTITY_BUNDLE_COUNT } from "./reputation-rules.ts";
import type { UserOperationRow } from "./tables.ts";
import { type RpcUserOperation, toUserOperation } from "./user-operation.ts";

/** Operations one handleOps carries at most, and the gas it may ask (half of a 30M block: room for others). */
export const MAX_BUNDLE = 64;
export const MAX_BUNDLE_GAS = 15_000_000n;
/** A bundle transaction's own gas beyond its operations' limits (intrinsic cost, the EntryPoint's loops). */
export const BUNDLE_BASE_GAS = 100_000n;

/** The gas a bundle transaction gets: the operations' own limits (and their authorisations'), plus the
 * transaction's base and the loop's. */
export function bundleGas(rows: Pick<UserOperationRow, "userOperation">[]): bigint {
  return rows.reduce((sum, row) => {
    const op = toUserOperation(row.userOperation as RpcUserOperation);
    return (
      sum +
      (op.authorization ? AUTHORIZATION_GAS : 0n) +
      op.preVerificationGas +
      op.verificationGasLimit +
      op.callGasLimit +
      (op.paymasterVerificationGasLimit ?? 0n) +
      (op.paymasterPostOpGasLimit ?? 0n)
    );
  }, BUNDLE_BASE_GAS);
}

/** An operation in a bundle not yet mined: which executor's bundle, and whether that bundle is signed yet. */
export type InFlightOperation = Pick<UserOperationRow, "sender" | "nonce"> & { executor: string; signed: boolean };

export interface SplitInput<Row extends UserOperationRow> {
  /** The partition's pending operations, oldest first. */
  pending: Row[];
  /** Its operations in bundles not yet mined. */
  inFlight: InFlightOperation[];
  /** The organisation's executors (lowercase), first first. */
  executors: string[];
  /** Executors with a bundle not yet mined (any EntryPoint). */
  busy: ReadonlySet<string>;
  /** Paymasters and factories (lowercase) throttled by their reputation. */
  throttled?: ReadonlySet<string>;
  /** Operations an executor's bundle takes before the next executor gets any (default 1: spread evenly). */
  fillSize?: number;
  /** Per paymaster (lowercase): the wei its EntryPoint deposit still covers, less what its operations in bundles
   * not yet mined may cost. A paymaster not named is not limited here. */
  paymasterBudgets?: ReadonlyMap<string, bigint>;
}

export interface PlannedBundle<Row> {
  executor: string;
  rows: Row[];
}

/** Rows as a bundle carries them: senders in order of their first row, each sender's in nonce order. */
export function inBundleOrder<Row extends Pick<UserOperationRow, "sender" | "nonce">>(rows: Row[]): Row[] {
  const bySender = new Map<string, Row[]>();
  for (const row of rows) bySender.set(row.sender, [...(bySender.get(row.sender) ?? []), row]);
  return [...bySender.values()].flatMap((own) => [...own].sort((a, b) => (BigInt(a.nonce) < BigInt(b.nonce) ? -1 : 1)));
}

/** The bundles of one run, the one carrying the oldest operation first. */
export function splitBundles<Row extends UserOperationRow>(input: SplitInput<Row>): PlannedBundle<Row>[] {
  const key = (sender: string, nonce: bigint) => `${sender}:${nonce}`;
  // Operations a successor must wait for: pending ones (until taken into a bundle here) and those in unsigned bundles.
  const waiting = new Set(
    [...input.pending, ...input.inFlight.filter((op) => !op.signed)].map((op) => key(op.sender, BigInt(op.nonce))),
  );
  const pinned = new Map(input.inFlight.map((op) => [op.sender, op.executor]));
  const idle = input.executors.filter((executor) => !input.busy.has(executor));
  const open = idle.length > 0 ? idle : input.executors;
  /** Per bundle: its rows, their gas, and how many name each throttled entity. */
  type Bundle = { rows: Row[]; gas: bigint; throttled: Map<string, number> };
  const bundles = new Map<string, Bundle>();
  const bundleOf = (executor: string) => {
    const bundle: Bundle = bundles.get(executor) ?? { rows: [], gas: BUNDLE_BASE_GAS, throttled: new Map() };
    bundles.set(executor, bundle);
    return bundle;
  };
  const spent = new Map<string, bigint>(); // per paymaster, over all the run's bundles
  const load = (executor: string) => bundles.get(executor)?.rows.length ?? 0;
  const fillSize = input.fillSize ?? 1;
  const nextExecutor = () =>
    open.find((executor) => load(executor) < fillSize) ??
    open.reduce((best, executor) => (load(executor) < load(best) ? executor : best));

  const bySender = new Map<string, Row[]>();
  for (const row of inBundleOrder(input.pending)) bySender.set(row.sender, [...(bySender.get(row.sender) ?? []), row]);
  for (const [sender, rows] of bySender) {
    const executor = pinned.get(sender) ?? nextExecutor();
    for (const row of rows) {
      const previous = previousNonce(BigInt(row.nonce));
      if (previous !== undefined && waiting.has(key(sender, previous))) break;
      const cost = bundleGas([row]) - BUNDLE_BASE_GAS;
      const bundle = bundleOf(executor);
      if (bundle.rows.length === MAX_BUNDLE || bundle.gas + cost > MAX_BUNDLE_GAS) break;
      const throttled = new Set(
        [row.paymaster, row.factory].filter((entity): entity is string => !!entity && !!input.throttled?.has(entity)),
      );
      if ([...throttled].some((entity) => (bundle.throttled.get(entity) ?? 0) >= THROTTLED_ENTITY_BUNDLE_COUNT)) break;
      const budget = row.paymaster ? input.paymasterBudgets?.get(row.paymaster) : undefined;
      const charge = BigInt(row.maxCharge ?? 0);
      if (budget !== undefined && (spent.get(row.paymaster!) ?? 0n) + charge > budget) break;
      if (row.paymaster) spent.set(row.paymaster, (spent.get(row.paymaster) ?? 0n) + charge);
      for (const entity of throttled) bundle.throttled.set(entity, (bundle.throttled.get(entity) ?? 0) + 1);
      bundle.rows.push(row);
      bundle.gas += cost;
      waiting.delete(key(sender, BigInt(row.nonce))); // its successor may follow it in this bundle
    }
  }
  return [...bundles]
    .filter(([, bundle]) => bundle.rows.length > 0)
    .map(([executor, bundle]) => ({ executor, rows: bundle.rows }));
}
