// Each system's token types (the directory's tokenTypes): registered, updated, removed.
import { ponder } from "ponder:registry";
import { tokenType } from "ponder:schema";
import { systemForRow } from "./catalogue-system.ts";

ponder.on("TokenFactoryRegistry:TokenTypeRegistered", async ({ event, context }) => {
  const registry = event.log.address;
  const { typeId, name, implementation, factoryImplementation, factory, registeredAt, isExperimental } = event.args;
  const type = { name, implementation, factoryImplementation, factory, registeredAt, isExperimental };
  const system = await systemForRow(context, registry, { table: "tokenType", key: { registry, typeId } });
  await context.db
    .insert(tokenType)
    .values({ chainId: context.chain.id, registry, typeId, system, ...type })
    .onConflictDoUpdate(type);
});

ponder.on("TokenFactoryRegistry:TokenTypeUpdated", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, typeId: event.args.typeId };
  if (!(await context.db.find(tokenType, key))) return;
  const { implementation, isExperimental } = event.args;
  await context.db.update(tokenType, key).set({ implementation, isExperimental });
});

ponder.on("TokenFactoryRegistry:TokenTypeRemoved", async ({ event, context }) => {
  await context.db.delete(tokenType, {
    chainId: context.chain.id,
    registry: event.log.address,
    typeId: event.args.typeId,
  });
});
