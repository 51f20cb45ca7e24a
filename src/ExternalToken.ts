// A registered external token's own events: mints and burns move its supply, Paused/Unpaused its pause state, in
// every registry that registered it. A token no registry holds (the factory matches the registration event from any
// emitter: ponder.config.ts) changes nothing. Store API only: a raw SQL write makes Ponder forget its row cache.
import { type Context, ponder } from "ponder:registry";
import { externalToken, externalTokenRegistries } from "ponder:schema";
import { type Address, zeroAddress } from "viem";

type ExternalTokenRow = typeof externalToken.$inferSelect;

/** Applies `change` to the token's row in every registry holding it. */
async function inEveryRegistry(
  context: Context,
  token: Address,
  change: (row: ExternalTokenRow) => Partial<Pick<ExternalTokenRow, "totalSupply" | "paused">>,
) {
  const chainId = context.chain.id;
  const held = await context.db.find(externalTokenRegistries, { chainId, token });
  for (const registry of held?.registries ?? []) {
    await context.db.update(externalToken, { chainId, registry, token }).set(change);
  }
}

ponder.on("ExternalToken:Transfer", async ({ event, context }) => {
  const { from, to, value } = event.args;
  if (from === zeroAddress)
    await inEveryRegistry(context, event.log.address, (row) => ({ totalSupply: row.totalSupply + value }));
  if (to === zeroAddress)
    await inEveryRegistry(context, event.log.address, (row) => ({ totalSupply: row.totalSupply - value }));
});

ponder.on("ExternalToken:Paused", async ({ event, context }) => {
  await inEveryRegistry(context, event.log.address, () => ({ paused: true }));
});

ponder.on("ExternalToken:Unpaused", async ({ event, context }) => {
  await inEveryRegistry(context, event.log.address, () => ({ paused: false }));
});
