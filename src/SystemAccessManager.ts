// Each system's access manager: who holds which role, and every grant and revocation in the activity feeds.
import { type Context, ponder } from "ponder:registry";
import { accessControlRoleMember } from "ponder:schema";
import type { Address, Hex } from "viem";
import { recordActivity } from "./activity.ts";
import type { LoggedEvent } from "./record-event.ts";
import { systemOf } from "./system-of.ts";

type RoleEvent = LoggedEvent & { args: { role: Hex; account: Address; sender: Address } };

async function roleChanged(context: Context, event: RoleEvent, eventName: "RoleGranted" | "RoleRevoked") {
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
