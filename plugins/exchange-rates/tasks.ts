// The hourly sync (the plugin's crontab entry, once across the cluster): every ready system with a feed registry
// gets the provider's sheet as one chain write, signed by its organisation's signer.
import type { Task } from "graphile-worker";
import type { Address } from "viem";
import type { PluginContext } from "../../host/plugin.ts";
import { rateProvider } from "./provider.ts";
import { publishRatesCall, SYNC_KIND } from "./sync.ts";

export function syncAllTask(ctx: PluginContext): Task {
  return async () => {
    const chains = await ctx.db.platform
      .selectFrom("organizationChains")
      .select(["organizationId", "chainId", "contracts"])
      .where("status", "=", "ready")
      .where("chainId", "=", ctx.chain.chainId)
      .execute();
    const targets = chains.filter((row) => row.contracts?.exchangeRateFeedRegistry);
    if (targets.length === 0) return;
    const data = publishRatesCall(await rateProvider(ctx.config).fetch());
    for (const row of targets) {
      await ctx.mutations.submit({
        organizationId: row.organizationId,
        chainId: row.chainId,
        kind: SYNC_KIND,
        to: row.contracts?.exchangeRateFeedRegistry as Address,
        data,
        createdBy: "platform",
      });
    }
    ctx.logger.info(`exchange rates synced for ${targets.length} system(s)`);
  };
}
