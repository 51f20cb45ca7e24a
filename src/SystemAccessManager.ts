// Each system's access manager: who holds which role (role_assignment from its first grant on), and every grant and
// revocation in the activity feeds.
import { type Context, ponder } from "ponder:registry";
import { accessControlRoleMember } from "ponder:schema";
import { recordActivity } from "./activity.ts";
import { type RoleEvent, recordRoleAssignment } from "./role-assignments.ts";
import { systemOf } from "./system-of.ts";

async function roleChanged(context: Context, event: RoleEvent, eventName: "RoleGranted" | "RoleRevoked") {
  await recordRoleAssignment(context, event, eventName === "RoleGranted");
  const accessManager = event.log.address;
  // The system's initialisation grants its first roles before SystemContractsCreated names the system.
  const system = await systemOf(context, accessManager);
  if (!system) return;
  const { role, account, sender } = event.args;
  const membership = { active: eventName === "RoleGranted", updatedAt: event.block.timestamp };
  await context.db
    .insert(accessControlRoleMember)
    .values({
      chainId: context.chain.id,
      id: `${accessManager}-${role}-${account}`.toLowerCase(),
      accessManager,
      system,
      role,
      account,
      ...membership,
    })
    .onConflictDoUpdate(membership);
  await recordActivity(context, event, {
    system,
    eventName,
    sender,
    account,
    involved: [account],
    values: { role, account },
  });
}

ponder.on("SystemAccessManager:RoleGranted", ({ event, context }) => roleChanged(context, event, "RoleGranted"));
ponder.on("SystemAccessManager:RoleRevoked", ({ event, context }) => roleChanged(context, event, "RoleRevoked"));
