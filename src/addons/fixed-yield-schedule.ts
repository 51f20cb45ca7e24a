// Fixed yield schedules: the terms at creation (the root's AddonInstanceCreated params), then top-ups, withdrawals
// and claims as running totals, the owner as it is handed over; every event also in the activity feeds.
import { type Context, ponder } from "ponder:registry";
import { fixedYieldHolder, fixedYieldSchedule } from "ponder:schema";
import { type Address, getAbiItem } from "viem";
import { FixedYieldScheduleFactoryAbi } from "../../abis/FixedYieldScheduleFactory.ts";
import { recordActivity } from "../activity.ts";
import type { LoggedEvent } from "../record-event.ts";
import type { AddonCreatedHandler } from "./created.ts";
import { decodeCreationParams } from "./creation.ts";

const CREATED = getAbiItem({ abi: FixedYieldScheduleFactoryAbi, name: "FixedYieldScheduleCreated" });

export const fixedYieldScheduleCreated: AddonCreatedHandler = async (context, { event, system, instance, params }) => {
  const [owner, token, denominationAsset, rateBps, interval, intervalSeconds, startDate, endDate] =
    decodeCreationParams(CREATED, params);
  // Recorded alike in the row and the activity event (the dates differ: bigint columns, the event's own values).
  const terms = { owner, token, denominationAsset, rateBps, interval, intervalSeconds };
  await context.db.insert(fixedYieldSchedule).values({
    chainId: context.chain.id,
    id: instance,
    system,
    ...terms,
    startDate: BigInt(startDate),
    endDate: BigInt(endDate),
    toppedUp: 0n,
    withdrawn: 0n,
    totalClaimed: 0n,
    deployedInTransaction: event.transaction.hash,
    createdAt: event.block.timestamp,
  });
  await recordActivity(context, event, {
    system,
    eventName: "FixedYieldScheduleCreated",
    sender: owner,
    token,
    involved: [instance, owner, token, denominationAsset],
    values: {
      schedule: instance,
      ...terms,
      startDate,
      endDate,
    },
  });
};

/** The schedule's row, moved on by `change`; null for an address that is not one (nothing recorded then). */
async function update(
  context: Context,
  schedule: Address,
  change: (row: typeof fixedYieldSchedule.$inferSelect) => Partial<typeof fixedYieldSchedule.$inferInsert>,
) {
  const key = { chainId: context.chain.id, id: schedule };
  const row = await context.db.find(fixedYieldSchedule, key);
  if (!row) return null;
  await context.db.update(fixedYieldSchedule, key).set(change(row));
  return row;
}

async function logScheduleEvent(
  context: Context,
  event: LoggedEvent,
  row: typeof fixedYieldSchedule.$inferSelect,
  eventName: string,
  sender: Address,
  values: Record<string, unknown>,
  others: Address[] = [],
) {
  await recordActivity(context, event, {
    system: row.system,
    eventName,
    sender,
    token: row.token,
    involved: [row.id, sender, row.denominationAsset, ...others],
    values: { schedule: row.id, ...values },
  });
}

ponder.on("AddonInstance:FixedYieldToppedUp", async ({ event, context }) => {
  const { from, amount } = event.args;
  const row = await update(context, event.log.address, (r) => ({ toppedUp: r.toppedUp + amount }));
  if (row) await logScheduleEvent(context, event, row, "FixedYieldToppedUp", from, { from, amount });
});

ponder.on("AddonInstance:FixedYieldWithdrawn", async ({ event, context }) => {
  const { to, amount } = event.args;
  const row = await update(context, event.log.address, (r) => ({ withdrawn: r.withdrawn + amount }));
  if (row) await logScheduleEvent(context, event, row, "FixedYieldWithdrawn", row.owner, { to, amount }, [to]);
});

ponder.on("AddonInstance:FixedYieldClaimed", async ({ event, context }) => {
  const { holder, fromPeriod, toPeriod, amount } = event.args;
  const schedule = event.log.address;
  const row = await update(context, schedule, (r) => ({ totalClaimed: r.totalClaimed + amount }));
  if (!row) return;
  await context.db
    .insert(fixedYieldHolder)
    .values({
      chainId: context.chain.id,
      schedule,
      holder,
      claimed: amount,
      nextPeriod: toPeriod,
      lastClaimedAt: event.block.timestamp,
    })
    .onConflictDoUpdate((h) => ({
      claimed: h.claimed + amount,
      nextPeriod: toPeriod,
      lastClaimedAt: event.block.timestamp,
    }));
  await logScheduleEvent(context, event, row, "FixedYieldClaimed", holder, { holder, fromPeriod, toPeriod, amount });
});

// The second step of an ownership hand-over (Ownable2Step): the schedule's owner is the new one. (The one its
// initialisation emits comes before the schedule's row exists, and records nothing.)
ponder.on("AddonInstance:OwnershipTransferred", async ({ event, context }) => {
  const { previousOwner, newOwner } = event.args;
  const row = await update(context, event.log.address, () => ({ owner: newOwner }));
  if (row) {
    const values = { previousOwner, newOwner };
    await logScheduleEvent(context, event, row, "OwnershipTransferred", newOwner, values, [previousOwner]);
  }
});
