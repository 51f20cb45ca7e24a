// Compliance engines: the module instances each system registers and the modules in force per token.
import { ponder } from "ponder:registry";
import { complianceModule, tokenComplianceModule } from "ponder:schema";
import { recordTokenEvent } from "./record-event.ts";

ponder.on("Compliance:ModuleRegistered", async ({ event, context }) => {
  const { module, typeId, moduleSetVersion } = event.args;
  await context.db
    .insert(complianceModule)
    .values({
      chainId: context.chain.id,
      id: module,
      compliance: event.log.address,
      typeId,
      moduleSetVersion,
      registered: true,
      registeredAt: event.block.timestamp,
    })
    .onConflictDoUpdate({ registered: true });
});

ponder.on("Compliance:ModuleUnregistered", async ({ event, context }) => {
  await context.db
    .update(complianceModule, { chainId: context.chain.id, id: event.args.module })
    .set({ registered: false });
});

ponder.on("Compliance:ModuleAdded", async ({ event, context }) => {
  const { sender, token, module, typeId, params } = event.args;
  const at = event.block.timestamp;
  await context.db
    .insert(tokenComplianceModule)
    .values({ chainId: context.chain.id, token, module, typeId, params, addedAt: at, updatedAt: at })
    .onConflictDoUpdate({ params, updatedAt: at });
  await recordTokenEvent(context, event, {
    token,
    eventName: "ComplianceModuleAdded",
    sender,
    involved: [],
    values: { module, typeId, params },
  });
});

ponder.on("Compliance:ModuleParametersUpdated", async ({ event, context }) => {
  const { sender, token, module, params } = event.args;
  await context.db
    .update(tokenComplianceModule, { chainId: context.chain.id, token, module })
    .set({ params, updatedAt: event.block.timestamp });
  await recordTokenEvent(context, event, {
    token,
    eventName: "ComplianceModuleParametersUpdated",
    sender,
    involved: [],
    values: { module, params },
  });
});

ponder.on("Compliance:ModuleRemoved", async ({ event, context }) => {
  const { sender, token, module } = event.args;
  await context.db.delete(tokenComplianceModule, { chainId: context.chain.id, token, module });
  await recordTokenEvent(context, event, {
    token,
    eventName: "ComplianceModuleRemoved",
    sender,
    involved: [],
    values: { module },
  });
});
