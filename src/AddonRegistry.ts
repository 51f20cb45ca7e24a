// Each system's addon types (the directory's addonTypes) and the addons created from them (the addon factories).
import { type Context, ponder } from "ponder:registry";
import { addonFactory, addonType } from "ponder:schema";
import { type Address, zeroAddress } from "viem";
import { addonKindName } from "../domain/directory/addon-kinds.ts";
import { recordActivity } from "./activity.ts";
import { catalogueSystem, systemForRow } from "./catalogue-system.ts";
import type { LoggedEvent } from "./record-event.ts";

/** An addon registry event in the activity feeds, once its system is known (not during the system's creation). */
async function logAddonEvent(
  context: Context,
  event: LoggedEvent & { args: { sender: Address } & Record<string, unknown> },
  system: Address | null,
  eventName: string,
  involved: Address[],
) {
  if (!system) return;
  const { sender, ...values } = event.args;
  await recordActivity(context, event, { system, eventName, sender, involved, values });
}

/** The registry writes address 0 for an implementation the kind has none of. */
const pointer = (address: Address) => (address === zeroAddress ? null : address);

ponder.on("AddonRegistry:AddonTypeRegistered", async ({ event, context }) => {
  const registry = event.log.address;
  const { typeId, name, kind, factoryImplementation, instanceImplementation, registeredAt, isExperimental } =
    event.args;
  const system = await systemForRow(context, registry, { table: "addonType", key: { registry, typeId } });
  const type = {
    name,
    kind: addonKindName(kind),
    factoryImplementation,
    instanceImplementation: pointer(instanceImplementation),
    registeredAt,
    isExperimental,
  };
  await context.db
    .insert(addonType)
    .values({ chainId: context.chain.id, registry, typeId, system, ...type })
    .onConflictDoUpdate(type);
  await logAddonEvent(context, event, system, "AddonTypeRegistered", []);
});

ponder.on("AddonRegistry:AddonTypeUpdated", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, typeId: event.args.typeId };
  if (!(await context.db.find(addonType, key))) return;
  const { factoryImplementation, instanceImplementation, isExperimental } = event.args;
  await context.db
    .update(addonType, key)
    .set({ factoryImplementation, instanceImplementation: pointer(instanceImplementation), isExperimental });
  await logAddonEvent(context, event, await catalogueSystem(context, event.log.address), "AddonTypeUpdated", []);
});

ponder.on("AddonRegistry:AddonTypeRemoved", async ({ event, context }) => {
  await context.db.delete(addonType, {
    chainId: context.chain.id,
    registry: event.log.address,
    typeId: event.args.typeId,
  });
  await logAddonEvent(context, event, await catalogueSystem(context, event.log.address), "AddonTypeRemoved", []);
});

ponder.on("AddonRegistry:AddonFactoryCreated", async ({ event, context }) => {
  const registry = event.log.address;
  const { addon, typeId, name, typeName, kind, version } = event.args;
  const system = await systemForRow(context, registry, { table: "addonFactory", key: { id: addon } });
  await context.db.insert(addonFactory).values({
    chainId: context.chain.id,
    id: addon,
    registry,
    system,
    name,
    typeHash: typeId,
    typeName,
    kind: addonKindName(kind),
    systemAddonImplementation: pointer(event.args.systemAddonImplementation),
    factoryImplementation: event.args.factoryImplementation,
    instanceImplementation: pointer(event.args.instanceImplementation),
    version,
    deployedInTransaction: event.transaction.hash,
    createdAt: event.block.timestamp,
  });
  await logAddonEvent(context, event, system, "AddonFactoryCreated", [addon]);
});

ponder.on("AddonRegistry:AddonFactoryRemoved", async ({ event, context }) => {
  await context.db.delete(addonFactory, { chainId: context.chain.id, id: event.args.addon });
  await logAddonEvent(context, event, await catalogueSystem(context, event.log.address), "AddonFactoryRemoved", [
    event.args.addon,
  ]);
});
