// XvP settlements: the creation (from the root's AddonInstanceCreated, decoded by XvPSettlementCreated's fields),
// then each settlement's approvals, execution, cancellation and hand-overs of an account's place. Every event reaches the activity feeds of every
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

// An account's place handed to its successor: its legs (sent and received), its party seat (not approved: the
// successor approves for itself) and the creator's seat if it held it.
ponder.on("AddonInstance:XvPSettlementHandedOver", async ({ event, context }) => {
  const { previous, successor } = event.args;
  const chainId = context.chain.id;
  const settlement = await context.db.find(xvpSettlement, { chainId, id: event.log.address });
  if (!settlement) return;
  const swap = (account: Address) => (same(account, previous) ? successor : account);
  await context.db.update(xvpSettlement, { chainId, id: settlement.id }).set({
    creator: swap(settlement.creator),
    parties: settlement.parties.map(swap),
    accounts: settlement.accounts.map(swap),
  });
  for (let position = 0; ; position++) {
    const flow = await context.db.find(xvpSettlementFlow, { chainId, settlement: settlement.id, position });
    if (!flow) break;
    await context.db
      .update(xvpSettlementFlow, { chainId, settlement: settlement.id, position })
      .set({ from: swap(flow.from), to: swap(flow.to) });
  }
  // Every approval is withdrawn (the legs each party approved have changed); the successor takes its party's row.
  for (const party of settlement.parties) {
    await context.db.delete(xvpSettlementApproval, { chainId, settlement: settlement.id, party });
    await context.db
      .insert(xvpSettlementApproval)
      .values({ chainId, settlement: settlement.id, party: swap(party), approved: false, at: event.block.timestamp });
  }
  await recordActivity(context, event, {
    system: CHAIN_SCOPE,
    eventName: "XvPSettlementHandedOver",
    sender: successor,
    involved: [...settlement.accounts, successor],
    values: { settlement: settlement.id, previous, successor },
  });
});

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
