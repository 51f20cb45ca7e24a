// ERC-7562's reputation, kept in platform.bundler_reputation per chain, EntryPoint and entity (migration
// 0005_reputation): an operation's paymaster and factory are counted seen when it is accepted and included when its
// bundle's UserOperationEvent says so, both decayed hourly (reputation-rules.ts, applied when a row is read). An
// entity's status decides whether its operations may enter the mempool (-32504 banned or throttled past its limit,
// -32505 an unstaked entity past its allowance); a banned entity's waiting operations are dropped [SREP-020], and a
// throttled one's once live for more than THROTTLED_ENTITY_LIVE_BLOCKS [SREP-030].
import { type Address, getAddress, type Hex, toHex } from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import {
  type DecayingCounters,
  decayed,
  mempoolAllowance,
  penalized,
  type ReputationCounters,
  reputationStatus,
  THROTTLED_ENTITY_LIVE_BLOCKS,
  throttledLiveSince,
} from "./reputation-rules.ts";
import { rpcError } from "./rpc-error.ts";
import type { BundlerDb } from "./tables.ts";
import { isStaked } from "./validation-rules.ts";

type Db = BundlerDb;

/** One EntryPoint's reputation on a chain (the EntryPoint's address lowercase). */
export interface ReputationScope {
  chainId: number;
  entryPoint: string;
}

/** An entity an operation names, with its stake as validation reported it. */
export interface ReputationEntity {
  role: "paymaster" | "factory";
  address: string;
  staked: boolean;
}

const lower = (address: string) => address.toLowerCase();

/** The entities' counters at `now`, their rows created if new and locked until the transaction ends (in address
 * order: two transactions never wait on each other's rows). */
async function lockedCounters(trx: Db, scope: ReputationScope, addresses: string[], now: Date) {
  const sorted = [...new Set(addresses.map(lower))].sort();
  const counters = new Map<string, DecayingCounters>();
  if (sorted.length === 0) return counters;
  await trx
    .insertInto("bundlerReputation")
    .values(sorted.map((address) => ({ ...scope, address, opsSeen: 0, opsIncluded: 0, decayedAt: now })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  const rows = await countersOf(trx, scope, sorted).orderBy("address").forUpdate().execute();
  for (const row of rows) counters.set(row.address, decayedAt(row, now));
  return counters;
}

/** The stored counters of `addresses` (lowercase) in the scope. */
const countersOf = (db: Db, scope: ReputationScope, addresses: string[]) =>
  db
    .selectFrom("bundlerReputation")
    .select(["address", "opsSeen", "opsIncluded", "decayedAt"])
    .where("chainId", "=", scope.chainId)
    .where("entryPoint", "=", scope.entryPoint)
    .where("address", "in", addresses);

const decayedAt = (row: ReputationCounters & { decayedAt: Date | string }, now: Date) =>
  decayed({ ...row, decayedAt: new Date(row.decayedAt) }, now);

async function store(trx: Db, scope: ReputationScope, address: string, counters: DecayingCounters) {
  await trx
    .updateTable("bundlerReputation")
    .set({ opsSeen: counters.opsSeen, opsIncluded: counters.opsIncluded, decayedAt: counters.decayedAt })
    .where("chainId", "=", scope.chainId)
    .where("entryPoint", "=", scope.entryPoint)
    .where("address", "=", address)
    .execute();
}

const bannedReason = (address: string) => `${address} is banned (ERC-7562 reputation)`;

/**
 * [SREP-020]: a banned entity's operations still waiting leave the mempool; with `acceptedBefore` (a throttled
 * entity's, SREP-030), only those accepted at an older head. Called holding the entity's row at acceptance: rows
 * locked by an acceptance (which waits for that entity row) are skipped rather than waited for, so the two cannot
 * deadlock; such an operation is dropped at the next ban or fails its bundle. Answers the dropped operations' hashes.
 */
async function dropOperationsOf(
  trx: Db,
  scope: ReputationScope,
  address: string,
  reason = bannedReason(address),
  acceptedBefore?: bigint,
) {
  const rows = await trx
    .updateTable("bundlerUserOperations")
    .set({ status: "failed", failureReason: reason, updatedAt: new Date() })
    .where("userOpHash", "in", (eb) => {
      const waiting = eb
        .selectFrom("bundlerUserOperations")
        .select("userOpHash")
        .where("chainId", "=", scope.chainId)
        .where("entryPoint", "=", scope.entryPoint)
        .where("status", "=", "pending")
        .where((w) => w.or([w("paymaster", "=", address), w("factory", "=", address)]));
      return (acceptedBefore === undefined ? waiting : waiting.where("acceptedBlock", "<", acceptedBefore.toString()))
        .forUpdate()
        .skipLocked();
    })
    .where("status", "=", "pending")
    .returning("userOpHash")
    .execute();
  return rows.map((row) => row.userOpHash);
}

/** [SREP-030]: the throttled entity's waiting operations live for more than THROTTLED_ENTITY_LIVE_BLOCKS at `head`
 * leave the mempool (their hashes answered). */
export const dropOutlivedOf = (db: Db, scope: ReputationScope, address: string, head: bigint) =>
  dropOperationsOf(
    db,
    scope,
    address,
    `${address} is throttled: live for more than ${THROTTLED_ENTITY_LIVE_BLOCKS} blocks (ERC-7562 reputation)`,
    throttledLiveSince(head),
  );

/** Of `addresses` (paymasters, factories), those throttled at `now` (read without locking: a bundling run's view). */
export async function throttledEntities(db: Db, scope: ReputationScope, addresses: string[], now: Date) {
  const wanted = [...new Set(addresses.map(lower))];
  if (wanted.length === 0) return new Set<string>();
  const rows = await countersOf(db, scope, wanted).execute();
  return new Set(rows.filter((row) => reputationStatus(decayedAt(row, now)) === "throttled").map((row) => row.address));
}

/** The live operations (waiting or in an unmined bundle) that name the entity in its role. */
async function liveOperationsNaming(trx: Db, scope: ReputationScope, entity: ReputationEntity) {
  const row = await trx
    .selectFrom("bundlerUserOperations")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("chainId", "=", scope.chainId)
    .where("entryPoint", "=", scope.entryPoint)
    .where("status", "in", ["pending", "submitted"])
    .where(entity.role, "=", lower(entity.address))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Inside the acceptance's transaction, before the operation is written: refuses it when one of its entities is
 * banned, or already has as many live operations as its reputation allows (a throttled one's outlived at `head`
 * dropped first); otherwise counts it seen by each.
 */
export async function admitAndCountSeen(
  trx: Db,
  scope: ReputationScope,
  entities: ReputationEntity[],
  now: Date,
  head: bigint,
) {
  const counters = await lockedCounters(
    trx,
    scope,
    entities.map((entity) => entity.address),
    now,
  );
  for (const entity of entities) {
    const address = lower(entity.address);
    const current = counters.get(address)!;
    const status = reputationStatus(current);
    const details = { entity: entity.role, address: getAddress(address), status, ...hexCounters(current) };
    if (status === "banned")
      throw rpcError("BUNDLER_ENTITY_BANNED", `The ${entity.role} ${details.address} is banned (ERC-7562)`, details);
    if (status === "throttled") await dropOutlivedOf(trx, scope, address, head);
    const allowance = mempoolAllowance(current, entity.staked);
    if (Number.isFinite(allowance) && (await liveOperationsNaming(trx, scope, entity)) >= allowance) {
      if (status === "throttled")
        throw rpcError(
          "BUNDLER_ENTITY_THROTTLED",
          `The ${entity.role} ${details.address} is throttled: ${allowance} of its operations are waiting already`,
          { ...details, limit: allowance },
        );
      throw rpcError(
        "BUNDLER_STAKE_TOO_LOW",
        `The unstaked ${entity.role} ${details.address} has ${allowance} operations waiting already; stake it for more`,
        { ...details, limit: allowance },
      );
    }
  }
  for (const entity of entities) {
    const address = lower(entity.address);
    const current = counters.get(address)!;
    const next = { ...current, opsSeen: current.opsSeen + 1 };
    await store(trx, scope, address, next);
    if (reputationStatus(next) === "banned") await dropOperationsOf(trx, scope, address);
  }
}

/** Inside the bundle's completion: each included operation's paymaster and factory count it included. */
export async function countIncluded(trx: Db, scope: ReputationScope, userOpHashes: string[], now: Date) {
  if (userOpHashes.length === 0) return;
  const rows = await trx
    .selectFrom("bundlerUserOperations")
    .select(["paymaster", "factory"])
    .where("userOpHash", "in", userOpHashes)
    .execute();
  const included = new Map<string, number>();
  for (const row of rows)
    for (const address of [row.paymaster, row.factory])
      if (address) included.set(address, (included.get(address) ?? 0) + 1);
  const counters = await lockedCounters(trx, scope, [...included.keys()], now);
  for (const [address, count] of included) {
    const current = counters.get(address)!;
    await store(trx, scope, address, { ...current, opsIncluded: current.opsIncluded + count });
  }
}

/**
 * [SREP-050]/[UREP-030]: the entity whose operation failed its bundle's check (the EntryPoint's AA1x blames the
 * factory, AA3x the paymaster) is banned, for longer when staked; its waiting operations are dropped.
 */
export async function penalize(db: Db, on: ServedChain, scope: ReputationScope, address: string, now: Date) {
  const { isStaked: staked } = await stakeStatus(on, scope.entryPoint as Address, address as Address);
  await db.transaction().execute(async (trx) => {
    const current = (await lockedCounters(trx, scope, [address], now)).get(lower(address))!;
    await store(trx, scope, lower(address), { ...current, ...penalized(staked) });
    await dropOperationsOf(trx, scope, lower(address));
  });
}

/**
 * The entity the EntryPoint's FailedOp reason blames, if the operation names one: its factory for AA1x, its paymaster
 * for AA3x, and for the account's own failure (AA2x) its factory when staked (EREP-020: a staked factory answers for
 * the accounts it deploys).
 */
export function blamedEntity(
  reason: string,
  op: { paymaster: string | null; factory: string | null },
  factoryStaked = false,
) {
  if (reason.startsWith("AA1")) return op.factory ?? undefined;
  if (reason.startsWith("AA3")) return op.paymaster ?? undefined;
  if (reason.startsWith("AA2") && factoryStaked) return op.factory ?? undefined;
  return undefined;
}

const hexCounters = (counters: ReputationCounters) => ({
  opsSeen: toHex(counters.opsSeen),
  opsIncluded: toHex(counters.opsIncluded),
});

/** debug_bundler_dumpReputation: every entity of the EntryPoint on the chain, with its decayed counters and status. */
export async function dumpReputation(db: Db, scope: ReputationScope, now: Date) {
  const rows = await db
    .selectFrom("bundlerReputation")
    .select(["address", "opsSeen", "opsIncluded", "decayedAt"])
    .where("chainId", "=", scope.chainId)
    .where("entryPoint", "=", scope.entryPoint)
    .orderBy("address")
    .execute();
  return rows.map((row) => {
    const counters = decayedAt(row, now);
    return { address: getAddress(row.address), ...hexCounters(counters), status: reputationStatus(counters) };
  });
}

/** debug_bundler_setReputation: the entities' counters replaced (their hour starts now); banned ones' operations
 * dropped. */
export async function setReputation(
  db: Db,
  scope: ReputationScope,
  entries: (ReputationCounters & { address: string })[],
  now: Date,
) {
  await db.transaction().execute(async (trx) => {
    const counters = await lockedCounters(
      trx,
      scope,
      entries.map((entry) => entry.address),
      now,
    );
    for (const entry of entries) {
      const address = lower(entry.address);
      if (!counters.has(address)) continue;
      await store(trx, scope, address, { opsSeen: entry.opsSeen, opsIncluded: entry.opsIncluded, decayedAt: now });
      if (reputationStatus(entry) === "banned") await dropOperationsOf(trx, scope, address);
    }
  });
}

/** debug_bundler_clearReputation (and clearState): every entity's counters on the chain forgotten. */
export async function clearReputation(db: Db, chainId: number) {
  await db.deleteFrom("bundlerReputation").where("chainId", "=", chainId).execute();
}

/** debug_bundler_getStakeStatus: the address's stake at the EntryPoint, and whether ERC-7562 counts it staked. */
export async function stakeStatus(on: ServedChain, entryPoint: Address, address: Address) {
  // getDepositInfo is the same in v0.7 and v0.8.
  const info = await on.client.readContract({
    address: entryPoint,
    abi: entryPoint08Abi,
    functionName: "getDepositInfo",
    args: [address],
  });
  const stake = { stake: BigInt(info.stake), unstakeDelaySec: BigInt(info.unstakeDelaySec) };
  return {
    stakeInfo: { addr: getAddress(address), stake: toHex(stake.stake), unstakeDelaySec: toHex(stake.unstakeDelaySec) },
    isStaked: isStaked(stake),
  } satisfies { stakeInfo: { addr: Address; stake: Hex; unstakeDelaySec: Hex }; isStaked: boolean };
}
