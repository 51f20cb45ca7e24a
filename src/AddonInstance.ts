// Addon instances: the root announces each one a system's addon (factory) creates; its type's handler
// (src/addons/created.ts) records what the type knows. The instances' own events are handled per type in src/addons/.
import { ponder } from "ponder:registry";
import { addonInstance } from "ponder:schema";
import { decodeAbiParameters } from "viem";
import { addonCreatedHandlers } from "./addons/created.ts";

ponder.on("SystemFactory:AddonInstanceCreated", async ({ event, context }) => {
  const { system, addon, instance, typeName, params } = event.args;
  // Every type's parameters start with the factory's caller.
  const [creator] = decodeAbiParameters([{ type: "address" }], params);
  await context.db.insert(addonInstance).values({
    chainId: context.chain.id,
    id: instance,
    system,
    addon,
    typeName,
    creator,
    deployedInTransaction: event.transaction.hash,
    blockNumber: event.block.number,
    createdAt: event.block.timestamp,
  });
  await addonCreatedHandlers[typeName]?.(context, { event, system, addon, instance, params });
});
