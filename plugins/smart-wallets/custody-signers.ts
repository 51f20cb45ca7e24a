// Whether a wallet's signers are all custody wallets of the organisation: EOAs the platform derived from the
// organisation's seed, whose keys only the platform holds. Only such a wallet is sponsored without an explicit decision.
import type { PluginContext } from "../../host/plugin.ts";

export async function allCustodyWallets(
  ctx: PluginContext,
  organizationId: string,
  addresses: readonly string[],
): Promise<boolean> {
  const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (wanted.length === 0) return false;
  const held = await ctx.db.platform
    .selectFrom("wallets")
    .select("address")
    .where("organizationId", "=", organizationId)
    .where("kind", "=", "eoa")
    .where("derivationPath", "<>", "")
    .where("address", "in", wanted)
    .execute();
  return held.length === wanted.length;
}
