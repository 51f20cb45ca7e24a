// Each system's compliance module types (the directory's complianceModuleTypes): registered, updated, removed.
import { ponder } from "ponder:registry";
import { complianceModuleType } from "ponder:schema";
import { systemForRow } from "./catalogue-system.ts";

ponder.on("ComplianceModuleRegistry:ComplianceModuleTypeRegistered", async ({ event, context }) => {
  const registry = event.log.address;
  const { typeId, implementation, name, registeredAt, isExperimental } = event.args;
  const type = { name, implementation, registeredAt, isExperimental };
  const system = await systemForRow(context, registry, { table: "complianceModuleType", key: { registry, typeId } });
  await context.db
    .insert(complianceModuleType)
    .values({ chainId: context.chain.id, registry, typeId, system, ...type })
    .onConflictDoUpdate(type);
});

ponder.on("ComplianceModuleRegistry:ComplianceModuleTypeUpdated", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, typeId: event.args.typeId };
  if (!(await context.db.find(complianceModuleType, key))) return;
  const { implementation, isExperimental } = event.args;
  await context.db.update(complianceModuleType, key).set({ implementation, isExperimental });
});

ponder.on("ComplianceModuleRegistry:ComplianceModuleTypeRemoved", async ({ event, context }) => {
  await context.db.delete(complianceModuleType, {
    chainId: context.chain.id,
    registry: event.log.address,
    typeId: event.args.typeId,
  });
});
