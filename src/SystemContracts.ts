// Every contract of a new system by role, so a registry's events find their system (and the rows its creation
// wrote before this event get theirs).
import { ponder } from "ponder:registry";
import { systemContract } from "ponder:schema";
import { adoptCatalogues } from "./catalogue-system.ts";

ponder.on("SystemFactory:SystemContractsCreated", async ({ event, context }) => {
  const { system, contracts } = event.args;
  await context.db
    .insert(systemContract)
    .values(Object.entries(contracts).map(([role, id]) => ({ chainId: context.chain.id, id, system, role })))
    .onConflictDoNothing();
  await adoptCatalogues(context, system, contracts);
});
