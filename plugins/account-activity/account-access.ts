// Who may read an account's activity (spec: permissions, account activity): the caller's own wallets; with
// identityManager or claimIssuer, any address the organisation owns (its wallets, its system's contracts and tokens)
// or an identity of its system (an identity contract or the account it belongs to). Price feeds, the bundler wallet
// and paymasters join this list with the plugins that bring them.
import { sql } from "kysely";
import { hasPermission } from "../../host/auth/permissions.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import type { Principal } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";

async function isOwnWallet(ctx: PluginContext, principal: Principal, participantId: string, address: string) {
  const row = await ctx.db.platform
    .selectFrom("wallets")
    .select("address")
    .where("organizationId", "=", principal.organizationId)
    .where("userId", "=", participantId)
    .where("address", "=", address)
    .executeTakeFirst();
  return row !== undefined;
}

async function isOrganisationWallet(ctx: PluginContext, organizationId: string, address: string) {
  const row = await ctx.db.platform
    .selectFrom("wallets")
    .select("address")
    .where("organizationId", "=", organizationId)
    .where("address", "=", address)
    .executeTakeFirst();
  return row !== undefined;
}

/** A contract or token of the system, or an identity the system's factory created (or the account it is for). */
async function isSystemAddress(ctx: PluginContext, chain: RequestChain, address: string) {
  const system = indexedHex(chain.systemAddress);
  if (address === system || Object.values(chain.contracts).some((c) => c.toLowerCase() === address)) return true;
  const found = await ctx.db.ledger
    .selectFrom("token")
    .select(sql<number>`1`.as("one"))
    .where("system", "=", system)
    .where("id", "=", indexedHex(address))
    .unionAll(
      ctx.db.ledger
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
  if (await isOwnWallet(ctx, principal, participantId, address)) return true;
  if (!hasPermission(principal.roles, "activity:read-others")) return false;
  return (
    (await isOrganisationWallet(ctx, principal.organizationId, address)) || (await isSystemAddress(ctx, chain, address))
  );
}
