// A registered external token's own events: mints and burns move its supply, Paused/Unpaused its pause state, in
// every registry that registered it. A token no registry holds (the factory matches the registration event from any
// emitter: ponder.config.ts) changes nothing.
import { type Context, ponder } from "ponder:registry";
import { externalToken } from "ponder:schema";
import { and, eq, sql } from "ponder";
import { type Address, zeroAddress } from "viem";

function addToSupply(context: Context, token: Address, delta: bigint) {
  return context.db.sql
    .update(externalToken)
    .set({ totalSupply: sql`${externalToken.totalSupply} + ${delta.toString()}::numeric` })
    .where(and(eq(externalToken.chainId, context.chain.id), eq(externalToken.token, token)));
}

function setPaused(context: Context, token: Address, paused: boolean) {
  return context.db.sql
    .update(externalToken)
    .set({ paused })
    .where(and(eq(externalToken.chainId, context.chain.id), eq(externalToken.token, token)));
}

ponder.on("ExternalToken:Transfer", async ({ event, context }) => {
  const { from, to, value } = event.args;
  if (from === zeroAddress) await addToSupply(context, event.log.address, value);
  if (to === zeroAddress) await addToSupply(context, event.log.address, -value);
});

ponder.on("ExternalToken:Paused", async ({ event, context }) => {
  await setPaused(context, event.log.address, true);
});

ponder.on("ExternalToken:Unpaused", async ({ event, context }) => {
  await setPaused(context, event.log.address, false);
});
