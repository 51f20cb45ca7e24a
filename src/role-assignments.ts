// Who holds which role on a contract with its own access control (a system's access manager, a token): every
// RoleGranted and RoleRevoked, the grants of the contract's initialisation included.
import type { Context } from "ponder:registry";
import { roleAssignment } from "ponder:schema";
import type { Address, Hex } from "viem";
import type { LoggedEvent } from "./record-event.ts";

export type RoleEvent = LoggedEvent & { args: { role: Hex; account: Address; sender: Address } };

export async function recordRoleAssignment(context: Context, event: RoleEvent, granted: boolean) {
  const contract = event.log.address;
  const { role, account, sender } = event.args;
  const id = `${contract}-${role}-${account}`.toLowerCase();
  if (!granted) {
    const key = { chainId: context.chain.id, id };
    // A revocation of a role never granted (OpenZeppelin emits none) has nothing to update.
    if (await context.db.find(roleAssignment, key)) {
      await context.db.update(roleAssignment, key).set({ active: false, updatedAt: event.block.timestamp });
    }
    return;
  }
  const grant = {
    active: true,
    grantedAt: event.block.timestamp,
    grantedBy: sender,
    transactionHash: event.transaction.hash,
    ordinal: event.id,
    updatedAt: event.block.timestamp,
  };
  await context.db
    .insert(roleAssignment)
    .values({ chainId: context.chain.id, id, contract, role, account, ...grant })
    .onConflictDoUpdate(grant);
}
