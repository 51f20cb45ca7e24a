// XvP settlements: the creation (from the root's AddonInstanceCreated, decoded by XvPSettlementCreated's fields),
// then each settlement's approvals, execution and cancellation. Every event reaches the activity feeds of every
// sender and recipient of its legs, in every organisation: a settlement may join wallets of several organisations'
// systems while an activity event belongs to one system, so its events carry CHAIN_SCOPE (as user operations do),
// which every organisation's feeds include for the addresses the caller may read.
import { type Context, ponder } from "ponder:registry";
import { xvpSettlement, xvpSettlementApproval, xvpSettlementFlow } from "ponder:schema";
import { type Address, getAbiItem, zeroHash } from "viem";
import { XvPSettlementFactoryAbi } from "../../abis/XvPSettlementFactory.ts";
import { CHAIN_SCOPE } from "../../domain/activity/chain-scope.ts";
import { recordActivity } from "../activity.ts";
import type { LoggedEvent } from "../record-event.ts";
import type { AddonCreatedHandler } from "./created.ts";
import { decodeCreationParams } from "./creation.ts";

const CREATED = getAbiItem({ abi: XvPSettlementFactoryAbi, name: "XvPSettlementCreated" });

export const xvpSettlementCreated: AddonCreatedHandler = async (context, { event, system, instance, params }) => {
  const [creator, flows, cutoff, hashlock] = decodeCreationParams(CREATED, params);
  const parties = [...new Set(flows.map((flow) => flow.from))];
  const accounts = [...new Set(flows.flatMap((flow) => [flow.from, flow.to]))];
  await context.db.insert(xvpSettlement).values({
    chainId: context.chain.id,
    id: instance,
    system,
    creator,
    cutoff: BigInt(cutoff),
    hashlock: hashlock === zeroHash ? null : hashlock,
    parties,
    accounts,
    deployedInTransaction: event.transaction.hash,
    createdAt: event.block.timestamp,
  });
  await context.db
    .insert(xvpSettlementFlow)
    .values(flows.map((flow, position) => ({ chainId: context.chain.id, settlement: instance, position, ...flow })));
  await context.db
    .insert(xvpSettlementApproval)
    .values(parties.map((party) => ({ chainId: context.chain.id, settlement: instance, party, approved: false })));
  await recordActivity(context, event, {
    system: CHAIN_SCOPE,
    eventName: "XvPSettlementCreated",
    sender: creator,
    involved: [instance, ...accounts],
    values: { settlement: instance, creator, flows: flows.length, cutoff, hashlock },
  });
};

/** Records an instance event in the feeds of every account of its settlement; the settlement, or null. */
async function record(
  context: Context,
  event: LoggedEvent,
  eventName: string,
  sender: Address,
  values: Record<string, unknown>,
) {
  const settlement = await context.db.find(xvpSettlement, { chainId: context.chain.id, id: event.log.address });
  if (!settlement) return null;
  await recordActivity(context, event, {
    system: CHAIN_SCOPE,
    eventName,
    sender,
    involved: settlement.accounts,
    values: { settlement: event.log.address, ...values },
  });
  return settlement;
}

async function setApproval(context: Context, event: LoggedEvent, party: Address, approved: boolean) {
  const eventName = approved ? "XvPSettlementApproved" : "XvPSettlementApprovalRevoked";
  if (!(await record(context, event, eventName, party, { party }))) return;
  await context.db
    .update(xvpSettlementApproval, { chainId: context.chain.id, settlement: event.log.address, party })
    .set({ approved, at: event.block.timestamp });
}

ponder.on("AddonInstance:XvPSettlementApproved", ({ event, context }) =>
  setApproval(context, event, event.args.party, true),
);

ponder.on("AddonInstance:XvPSettlementApprovalRevoked", ({ event, context }) =>
  setApproval(context, event, event.args.party, false),
);

ponder.on("AddonInstance:XvPSettlementExecuted", async ({ event, context }) => {
  const { executor, secret } = event.args;
  if (!(await record(context, event, "XvPSettlementExecuted", executor, { executor, secret }))) return;
  await context.db.update(xvpSettlement, { chainId: context.chain.id, id: event.log.address }).set({
    executedAt: event.block.timestamp,
    executedInTransaction: event.transaction.hash,
    executor,
    secret: secret === "0x" ? null : secret,
  });
});

ponder.on("AddonInstance:XvPSettlementCancelled", async ({ event, context }) => {
  const { by } = event.args;
  if (!(await record(context, event, "XvPSettlementCancelled", by, { by }))) return;
  await context.db
    .update(xvpSettlement, { chainId: context.chain.id, id: event.log.address })
    .set({ cancelledAt: event.block.timestamp, cancelledBy: by });
});
