// Token sales: the terms at creation (the root's AddonInstanceCreated, decoded by TokenSaleCreated), then the running
// totals and each buyer's purchases from the sale's own events, the issuer as it is handed over (buyers' tokens still
// come from the first issuer, the token source); every event reaches the activity feeds.
import { type Context, ponder } from "ponder:registry";
import { tokenSale, tokenSalePurchase } from "ponder:schema";
import { type Address, getAbiItem } from "viem";
import { TokenSaleFactoryAbi } from "../../abis/TokenSaleFactory.ts";
import { recordActivity } from "../activity.ts";
import type { LoggedEvent } from "../record-event.ts";
import type { AddonCreatedHandler } from "./created.ts";
import { decodeCreationParams } from "./creation.ts";

const CREATED = getAbiItem({ abi: TokenSaleFactoryAbi, name: "TokenSaleCreated" });

export const tokenSaleCreated: AddonCreatedHandler = async (context, { event, system, instance, params }) => {
  const [issuer, token, paymentAsset, priceWad, hardCap, softCap, startDate, endDate] = decodeCreationParams(
    CREATED,
    params,
  );
  await context.db.insert(tokenSale).values({
    chainId: context.chain.id,
    id: instance,
    system,
    issuer,
    tokenSource: issuer,
    token,
    paymentAsset,
    priceWad,
    hardCap,
    softCap,
    startDate: BigInt(startDate),
    endDate: BigInt(endDate),
    sold: 0n,
    raised: 0n,
    tokensWithdrawn: 0n,
    proceedsWithdrawn: false,
    deployedInTransaction: event.transaction.hash,
    createdAt: event.block.timestamp,
  });
  await recordActivity(context, event, {
    system,
    eventName: "TokenSaleCreated",
    sender: issuer,
    token,
    involved: [issuer, instance, token, paymentAsset],
    values: { sale: instance, issuer, token, paymentAsset, priceWad, hardCap, softCap, startDate, endDate },
  });
};

/** The sale of the event's emitter (undefined for an instance of another type), and the activity it records. */
async function saleEvent(
  context: Context,
  event: LoggedEvent,
  eventName: string,
  party: Address,
  values: Record<string, unknown>,
) {
  const sale = await context.db.find(tokenSale, { chainId: context.chain.id, id: event.log.address });
  if (!sale) return undefined;
  await recordActivity(context, event, {
    system: sale.system,
    eventName,
    sender: party,
    token: sale.token,
    involved: [party, sale.issuer, sale.token, sale.paymentAsset],
    values: { sale: event.log.address, ...values },
  });
  return sale;
}

ponder.on("AddonInstance:TokenSalePurchased", async ({ event, context }) => {
  const { buyer, amount, payment, sold } = event.args;
  const sale = await saleEvent(context, event, "TokenSalePurchased", buyer, { buyer, amount, payment, sold });
  if (!sale) return;
  await context.db
    .update(tokenSale, { chainId: context.chain.id, id: sale.id })
    .set({ sold, raised: sale.raised + payment });
  await context.db
    .insert(tokenSalePurchase)
    .values({
      chainId: context.chain.id,
      sale: sale.id,
      buyer,
      amount,
      payment,
      withdrawn: false,
      refunded: false,
      ordinal: event.id,
    })
    .onConflictDoUpdate((row) => ({ amount: row.amount + amount, payment: row.payment + payment }));
});

ponder.on("AddonInstance:TokenSaleTokensWithdrawn", async ({ event, context }) => {
  const { buyer, amount } = event.args;
  const sale = await saleEvent(context, event, "TokenSaleTokensWithdrawn", buyer, { buyer, amount });
  if (!sale) return;
  await context.db
    .update(tokenSale, { chainId: context.chain.id, id: sale.id })
    .set({ tokensWithdrawn: sale.tokensWithdrawn + amount });
  await context.db
    .update(tokenSalePurchase, { chainId: context.chain.id, sale: sale.id, buyer })
    .set({ withdrawn: true });
});

ponder.on("AddonInstance:TokenSaleRefunded", async ({ event, context }) => {
  const { buyer, payment } = event.args;
  const sale = await saleEvent(context, event, "TokenSaleRefunded", buyer, { buyer, payment });
  if (!sale) return;
  await context.db
    .update(tokenSalePurchase, { chainId: context.chain.id, sale: sale.id, buyer })
    .set({ refunded: true });
});

ponder.on("AddonInstance:TokenSaleProceedsWithdrawn", async ({ event, context }) => {
  const { issuer, proceeds } = event.args;
  const sale = await saleEvent(context, event, "TokenSaleProceedsWithdrawn", issuer, { issuer, proceeds });
  if (!sale) return;
  await context.db.update(tokenSale, { chainId: context.chain.id, id: sale.id }).set({ proceedsWithdrawn: true });
});

// The second step of the issuer's hand-over: the new issuer takes the proceeds.
ponder.on("AddonInstance:TokenSaleIssuerTransferred", async ({ event, context }) => {
  const { previousIssuer, newIssuer } = event.args;
  const values = { previousIssuer, newIssuer };
  const sale = await saleEvent(context, event, "TokenSaleIssuerTransferred", newIssuer, values);
  if (!sale) return;
  await context.db.update(tokenSale, { chainId: context.chain.id, id: sale.id }).set({ issuer: newIssuer });
});
