// Each system's identity registry: wallets registered with an identity and a country (registered vs pending).

import type { Context } from "ponder:registry";
import { ponder } from "ponder:registry";
import { identity, identityRegistration } from "ponder:schema";
import type { Address } from "viem";
import { METRICS } from "../domain/statistics/metrics.ts";
import { recordActivity } from "./activity.ts";
import { systemOf } from "./system-of.ts";
import { countStats } from "./system-stats.ts";

/**
 * One more (or one less) wallet of the system's registry maps to the identity: the identity is registered while any
 * does. Identities of other systems' factories are not counted (each system reports its own).
 */
async function countRegistration(
  context: Context,
  system: Address,
  id: Address,
  delta: 1 | -1,
  at: bigint,
  country?: number,
) {
  const key = { chainId: context.chain.id, id };
  const row = await context.db.find(identity, key);
  if (!row || row.system.toLowerCase() !== system.toLowerCase()) return;
  // Read before the update: Ponder's cache hands out the row it then updates in place.
  const wasRegistered = row.registrations > 0;
  const registrations = Math.max(0, row.registrations + delta);
  await context.db.update(identity, key).set({
    registrations,
    lastActivityAt: at,
    country: registrations === 0 ? null : (country ?? row.country),
  });
  const nowRegistered = registrations > 0;
  if (!row.isContract && nowRegistered !== wasRegistered) {
    await countStats(context, system, at, [[METRICS.activeUserIdentities, nowRegistered ? 1 : -1]]);
  }
}

ponder.on("IdentityRegistry:IdentityRegistered", async ({ event, context }) => {
  const registry = event.log.address;
  const system = await systemOf(context, registry);
  if (!system) return;
  const { wallet, identity: id, country } = event.args;
  const at = event.block.timestamp;
  await context.db
    .insert(identityRegistration)
    .values({ chainId: context.chain.id, registry, wallet, system, identity: id, country, registeredAt: at })
    .onConflictDoUpdate({ identity: id, country, registeredAt: at });
  await countRegistration(context, system, id, 1, at, country);
  await recordActivity(context, event, {
    system,
    eventName: "IdentityRegistered",
    sender: event.args.sender,
    account: wallet,
    involved: [id],
    values: event.args,
  });
});

ponder.on("IdentityRegistry:IdentityRemoved", async ({ event, context }) => {
  const registry = event.log.address;
  const system = await systemOf(context, registry);
  if (!system) return;
  await context.db.delete(identityRegistration, { chainId: context.chain.id, registry, wallet: event.args.wallet });
  await countRegistration(context, system, event.args.identity, -1, event.block.timestamp);
  await recordActivity(context, event, {
    system,
    eventName: "IdentityRemoved",
    sender: event.args.sender,
    account: event.args.wallet,
    involved: [event.args.identity],
    values: event.args,
  });
});

ponder.on("IdentityRegistry:CountryUpdated", async ({ event, context }) => {
  const registry = event.log.address;
  const { wallet, newCountry } = event.args;
  const key = { chainId: context.chain.id, registry, wallet };
  const registration = await context.db.find(identityRegistration, key);
  if (!registration) return;
  await context.db.update(identityRegistration, key).set({ country: newCountry });
  const owner = await context.db.find(identity, { chainId: context.chain.id, id: registration.identity });
  if (owner && owner.system.toLowerCase() === registration.system.toLowerCase()) {
    await context.db
      .update(identity, { chainId: context.chain.id, id: owner.id })
      .set({ country: newCountry, lastActivityAt: event.block.timestamp });
  }
  await recordActivity(context, event, {
    system: registration.system,
    eventName: "CountryUpdated",
    sender: event.args.sender,
    account: wallet,
    involved: [registration.identity],
    values: event.args,
  });
});

ponder.on("IdentityRegistry:IdentityUpdated", async ({ event, context }) => {
  const registry = event.log.address;
  const { wallet, newIdentity, oldIdentity } = event.args;
  const key = { chainId: context.chain.id, registry, wallet };
  const registration = await context.db.find(identityRegistration, key);
  if (!registration) return;
  const at = event.block.timestamp;
  await context.db.update(identityRegistration, key).set({ identity: newIdentity });
  await countRegistration(context, registration.system, oldIdentity, -1, at);
  await countRegistration(context, registration.system, newIdentity, 1, at, registration.country);
  await recordActivity(context, event, {
    system: registration.system,
    eventName: "IdentityUpdated",
    sender: event.args.sender,
    account: wallet,
    involved: [oldIdentity, newIdentity],
    values: event.args,
  });
});
