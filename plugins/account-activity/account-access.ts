// Who may read an account's activity (spec: permissions, account activity): the caller's own wallets (a smart wallet
// recorded with the caller's userId included); with identityManager or claimIssuer, any address the organisation
// owns (its wallets, its system's contracts and tokens) or an identity of its system (an identity contract or the
// account it belongs to); with admin, systemManager, auditor or gasManager, the organisation's bundler wallet and
// paymasters. Price feeds join this list with the plugin that brings them.
import { sql } from "kysely";
import { hasPermission } from "../../host/auth/permissions.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import type { Principal } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";

/** The organisation's wallet at `address`: whose it is (null: the organisation's) and its kind, or undefined. */
async function organisationWallet(ctx: PluginContext, organizationId: string, address: string) {
  return ctx.db.platform
    .selectFrom("wallets")
    .select(["userId", "kind"])
    .where("organizationId", "=", organizationId)
    .where("address", "=", address)
    .executeTakeFirst();
}

/** A contract or token of the system, or an identity the system's factory created (or the account it is for). */
async function isSystemAddress(chain: RequestChain, address: string) {
  const system = indexedHex(chain.systemAddress);
  if (address === system || Object.values(chain.contracts).some((c) => c.toLowerCase() === address)) return true;
  const found = await chain.ledger
    .selectFrom("token")
    .select(sql<number>`1`.as("one"))
    .where("system", "=", system)
    .where("id", "=", indexedHex(address))
    .unionAll(
      chain.ledger
        .selectFrom("identity")
        .select(sql<number>`1`.as("one"))
        .where("system", "=", system)
        .where((eb) => eb.or([eb("id", "=", indexedHex(address)), eb("account", "=", indexedHex(address))])),
    )
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

export async function mayReadAccount(
  ctx: PluginContext,
  chain: RequestChain,
  principal: Principal,
  participantId: string,
  address: string,
): Promise<boolean> {
  const wallet = await organisationWallet(ctx, principal.organizationId, address);
  if (wallet?.userId === participantId) return true;
  const gasAccount = wallet?.kind === "bundler" || wallet?.kind === "paymaster";
  if (gasAccount && hasPermission(principal.roles, "activity:read-gas-accounts")) return true;
  if (!hasPermission(principal.roles, "activity:read-others")) return false;
  return wallet !== undefined || (await isSystemAddress(chain, address));
}
