// eth_sendUserOperation's acceptance on a chain: the operation is checked (preVerificationGas, validation by
// simulation, the sender's sponsorship limits when a paymaster pays), then written to the mempool
// (platform.bundler_user_operations) under the replacement rules, and the bundling run of the caller's organisation on
// that chain is woken (in auto mode). The hash is answered once the row is committed. The usual operation (no
// paymaster, no factory, no storage outside its sender's, nothing contending) is written in one statement while its
// validation runs (quick-insert.ts); the wake is not waited for.
import { sql } from "kysely";
import type { Hex } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { wakeBundler } from "./bundle-job.ts";
import { bundlerState } from "./bundler-state.ts";
import { isEip7702Factory } from "./eip7702.ts";
import type { ServedEntryPoint } from "./entry-points.ts";
import { prepareOperation, validateOperation } from "./operation-check.ts";
import { insertUnlessContended, markAccepted, type ValidationSoFar, withdrawAccepting } from "./quick-insert.ts";
import { admitAndCountSeen } from "./reputation.ts";
import { reputationEntities } from "./reputation-entities.ts";
import { rpcError } from "./rpc-error.ts";
import { assertSenderNotEntity } from "./sender-entity-rule.ts";
import { MAX_PENDING_PER_SENDER, waitingCount } from "./sender-limit.ts";
import { assertNoSenderStorage } from "./sender-storage-rule.ts";
import type { BundlerSettings } from "./settings.ts";
import { chainHead, type ValidationResult } from "./simulation.ts";
import { sponsoredUsage } from "./sponsored-usage.ts";
import { assertWithinSponsorshipLimits, maxCharge } from "./sponsorship-limits.ts";
import { bundlerDb } from "./tables.ts";
import type { RpcUserOperation } from "./user-operation.ts";

/** A replacement raises both fees by at least this percentage. */
const REPLACEMENT_BUMP_PERCENT = 10n;

const sponsorshipLimits = (ctx: PluginContext<never, BundlerSettings>) => ({
  operationsPerDay: ctx.settings.BUNDLER_SPONSORED_OPERATIONS_PER_DAY,
  weiPerDay: ctx.settings.BUNDLER_SPONSORED_WEI_PER_DAY,
});

/** Foreign storage (STO-041) or an entity the validation named needs the full acceptance (its locks, reputation and
 * rules), not the quick insert's row alone. */
const needsFullAcceptance = (rpcOp: RpcUserOperation, validation: ValidationResult) =>
  reputationEntities(rpcOp, validation).length > 0 || (validation.storageAddresses ?? []).length > 0;

const bumped = (previous: string) => (BigInt(previous) * (100n + REPLACEMENT_BUMP_PERCENT) + 99n) / 100n;

export async function acceptUserOperation(
  ctx: PluginContext<never, BundlerSettings>,
  on: ServedChain,
  organizationId: string,
  rpcOp: RpcUserOperation,
  entryPoint: ServedEntryPoint,
): Promise<Hex> {
  const prepared = await prepareOperation(on, organizationId, rpcOp, entryPoint);
  const { op, hash, row } = prepared;
  const sender = row.sender;
  const charge = maxCharge(op);
  const db = bundlerDb(ctx.db.platform);
  // No paymaster nor factory: nothing to count but the sender's room. Its row is written in one statement while the
  // validation runs (the two round trips at once): accepted if the validation passed before the write got its
  // connection, else `accepting` until it has.
  const quick = !op.paymaster && (!rpcOp.factory || isEip7702Factory(rpcOp.factory));
  let passed: ValidationResult | undefined;
  const validating = validateOperation(ctx, on, prepared).then((result) => (passed = result));
  const soFar = (): ValidationSoFar =>
    passed && !needsFullAcceptance(rpcOp, passed)
      ? { accepted: true, ...(passed.visitedCode ? { visitedCode: passed.visitedCode } : {}) }
      : { accepted: false };
  const [validated, written] = await Promise.allSettled([
    validating,
    quick ? insertUnlessContended(db, ctx.db.pool, row, MAX_PENDING_PER_SENDER, soFar) : undefined,
  ]);
  const inserted = written.status === "fulfilled" && written.value?.inserted === true;
  if (validated.status === "rejected") {
    if (inserted) await withdrawAccepting(db, hash);
    throw validated.reason;
  }
  if (written.status === "rejected") throw written.reason;
  const validation = validated.value;
  const entities = reputationEntities(rpcOp, validation);
  const storageAddresses = validation.storageAddresses ?? [];
  if (inserted) {
    if (!needsFullAcceptance(rpcOp, validation)) {
      // Answered once the row is durable; the mark (a write that does not wait for the disk), if the row still needs
      // one, and the wake follow.
      if (!written.value?.accepting) wake(ctx, on.chainId, organizationId);
      else
        markAccepted(db, ctx.db.pool, hash, validation.visitedCode).then(
          () => wake(ctx, on.chainId, organizationId),
          (error) => ctx.logger.warn("bundler: an accepted operation stays accepting", { hash, error: String(error) }),
        );
      return hash;
    }
    await withdrawAccepting(db, hash);
  }

  const acceptInTransaction = async () => {
    // The head validation saw (cached): a throttled entity's operation leaves the mempool some blocks after it.
    const head = (await chainHead(on, bundlerState(ctx).validation)).number;
    return db.transaction().execute(async (trx) => {
      // One acceptance of an address at a time, as a sender or as an entity (the quick insert takes its sender's too):
      // each counts the sender's room the one before it left, and STO-040 sees an operation naming this sender as its
      // paymaster, or this operation's paymaster as its sender, once committed. Taken in one order: no deadlock.
      // One statement: the function runs row by row in the array's order.
      const lockedAddresses = [...new Set([sender, ...entities.map((entity) => entity.address)])].sort();
      await sql`select platform.bundler_lock_sender(${on.chainId}::integer, ${entryPoint.address.toLowerCase()}, address)
        from unnest(${lockedAddresses}::text[]) as address`.execute(trx);
      // The sender's operations still waiting, and this one if it was sent before, as committed: the sender's lock
      // orders its acceptances, and no row lock is taken (a bundle's claim or inclusion takes many senders' rows in
      // its own order, and a statement locking several of this sender's rows deadlocked with it in a bench run).
      const rows = await trx
        .selectFrom("bundlerUserOperations")
        .selectAll()
        .where("chainId", "=", on.chainId)
        .where("entryPoint", "=", entryPoint.address.toLowerCase())
        .where("sender", "=", sender)
        .where((eb) => eb.or([eb("status", "in", ["pending", "submitted"]), eb("userOpHash", "=", hash)]))
        .execute();
      const same = rows.find((row) => row.userOpHash === hash);
      if (same && same.status !== "failed") return false; // sent again: the same operation, nothing new
      const live = rows.filter((row) => row.status === "pending" || row.status === "submitted");
      const previous = live.find((row) => BigInt(row.nonce) === op.nonce);
      const inBundle = () =>
        rpcError("BUNDLER_INVALID_PARAMS", "An operation with this sender and nonce is already in a bundle", {
          field: "nonce",
        });
      if (previous?.status === "submitted") throw inBundle();
      if (previous) {
        if (
          op.maxFeePerGas < bumped(previous.maxFeePerGas) ||
          op.maxPriorityFeePerGas < bumped(previous.maxPriorityFeePerGas)
        )
          throw rpcError(
            "BUNDLER_INVALID_PARAMS",
            `A replacement must raise maxFeePerGas and maxPriorityFeePerGas by ${REPLACEMENT_BUMP_PERCENT} % (replacement underpriced)`,
            { field: "maxFeePerGas", replaces: previous.userOpHash },
          );
        const replaced = await trx
          .updateTable("bundlerUserOperations")
          .set({ status: "failed", failureReason: `replaced by ${hash}`, updatedAt: new Date() })
          .where("userOpHash", "=", previous.userOpHash)
          .where("status", "=", "pending") // a bundle may have claimed it since it was read
          .executeTakeFirst();
        if (replaced.numUpdatedRows === 0n) throw inBundle();
      } else if (waitingCount(live) >= MAX_PENDING_PER_SENDER) {
        throw rpcError("BUNDLER_THROTTLED", `The sender has ${waitingCount(live)} operations waiting already`, {
          sender,
        });
      }
      // After the replaced one stopped counting; the sender's lock (sponsoredUsage) makes the check and insert one step.
      if (op.paymaster) {
        const now = new Date();
        const usage = await sponsoredUsage(trx, on.chainId, sender, now);
        assertWithinSponsorshipLimits(sender, usage, charge, sponsorshipLimits(ctx), now);
      }
      // ERC-7562 reputation: a banned entity is refused, a throttled or unstaked one limited; then it is counted seen.
      const scope = { chainId: on.chainId, entryPoint: entryPoint.address.toLowerCase() };
      const named = entities.map((entity) => entity.address);
      await assertSenderNotEntity(trx, scope, sender, named);
      // [STO-041]: not storage of a live operation's sender (bundling holds back one that missed a concurrent one).
      await assertNoSenderStorage(trx, scope, { sender, entities: named }, storageAddresses);
      await admitAndCountSeen(trx, scope, entities, new Date(), head);
      if (same) await trx.deleteFrom("bundlerUserOperations").where("userOpHash", "=", hash).execute();
      await trx
        .insertInto("bundlerUserOperations")
        .values({
          ...row,
          paymaster: op.paymaster?.toLowerCase() ?? null,
          maxCharge: op.paymaster ? charge.toString() : null,
          factory: entities.find((entity) => entity.role === "factory")?.address ?? null,
          acceptedBlock: head.toString(),
          storageAddresses: storageAddresses.length > 0 ? storageAddresses : null,
          validationCodeHashes: validation.visitedCode ? JSON.stringify(validation.visitedCode) : null,
          status: "pending",
        })
        .execute();
      return true;
    });
  };
  if (await acceptInTransaction()) wake(ctx, on.chainId, organizationId);
  return hash;
}

/**
 * The row is committed: the operation is durable and its hash can be answered. The wake only starts the next run
 * sooner, so it is not waited for (under load, a wake waits for the one in flight and then for a connection); a failed
 * one is logged, and the operation is bundled by the next run (any later acceptance or bundle wakes one).
 */
function wake(ctx: PluginContext<never, BundlerSettings>, chainId: number, organizationId: string) {
  wakeBundler(ctx, chainId, organizationId).catch((error) =>
    ctx.logger.error("bundler wake failed", { chainId, organizationId, error: String(error) }),
  );
}
