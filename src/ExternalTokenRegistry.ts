// Each system's external tokens: registrations (the token's metadata, interfaces, supply and pause state as the
// registry read them), type updates and removals; each also in the activity feeds.
import { type Context, ponder } from "ponder:registry";
import { externalToken, externalTokenRegistries } from "ponder:schema";
import type { Address } from "viem";
import { recordActivity } from "./activity.ts";
import type { LoggedEvent } from "./record-event.ts";
import { systemOf } from "./system-of.ts";

async function logRegistryEvent(
  context: Context,
  event: LoggedEvent & { args: { sender: Address; token: Address } & Record<string, unknown> },
  system: Address,
  eventName: string,
) {
  const { sender, ...values } = event.args;
  await recordActivity(context, event, { system, eventName, sender, involved: [event.args.token], values });
}

ponder.on("ExternalTokenRegistry:ExternalTokenRegistered", async ({ event, context }) => {
  const registry = event.log.address;
  const system = await systemOf(context, registry);
  if (!system) return;
  const { sender, token, tokenType, name, symbol, decimals, detectedInterfaces, registeredAt, totalSupply, paused } =
    event.args;
  await context.db.insert(externalToken).values({
    chainId: context.chain.id,
    registry,
    token,
    system,
    tokenType,
    name,
    symbol,
    decimals,
    totalSupply,
    paused,
    detectedInterfaces: [...detectedInterfaces],
    registeredBy: sender,
    registeredAt,
    registeredInTransaction: event.transaction.hash,
    ordinal: event.id,
  });
  await context.db
    .insert(externalTokenRegistries)
    .values({ chainId: context.chain.id, token, registries: [registry] })
    .onConflictDoUpdate((held) => ({ registries: [...held.registries, registry] }));
  await logRegistryEvent(context, event, system, "ExternalTokenRegistered");
});

ponder.on("ExternalTokenRegistry:ExternalTokenTypeUpdated", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, token: event.args.token };
  const row = await context.db.find(externalToken, key);
  if (!row) return;
  await context.db.update(externalToken, key).set({ tokenType: event.args.tokenType });
  await logRegistryEvent(context, event, row.system, "ExternalTokenTypeUpdated");
});

ponder.on("ExternalTokenRegistry:ExternalTokenUnregistered", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, token: event.args.token };
  const row = await context.db.find(externalToken, key);
  if (!row) return;
  await context.db.delete(externalToken, key);
  await context.db
    .update(externalTokenRegistries, { chainId: context.chain.id, token: event.args.token })
    .set((held) => ({ registries: held.registries.filter((registry) => registry !== event.log.address) }));
  await logRegistryEvent(context, event, row.system, "ExternalTokenUnregistered");
});
