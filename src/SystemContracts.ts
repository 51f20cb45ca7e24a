// Every contract of a new system by role, so a registry's events find their system.
import { ponder } from "ponder:registry";
import { systemContract } from "ponder:schema";

ponder.on("SystemFactory:SystemContractsCreated", async ({ event, context }) => {
  const { system, contracts } = event.args;
  await context.db
    .insert(systemContract)
    .values(Object.entries(contracts).map(([role, id]) => ({ id, system, role })))
    .onConflictDoNothing();
});
