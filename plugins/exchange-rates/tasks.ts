// The hourly sync (the plugin's crontab entry, once across the cluster): every ready system on every served chain whose
// feed registry has feeds (its organisation synced once through the API there: an organisation that never asked for
// rates spends no gas) gets the provider's sheet as one chain write on that chain, signed by its organisation's signer.
import type { Address } from "viem";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask, NoPayload } from "../../host/worker/define-task.ts";
import { rateProvider } from "./provider.ts";
import { systemFeeds } from "./rates-query.ts";
import type { ExchangeRateSettings } from "./settings.ts";
import { publishRatesCall, SYNC_KIND } from "./sync.ts";

export function syncAllTask(ctx: PluginContext<never, ExchangeRateSettings>) {
  return defineTask(NoPayload, async () => {
    const chains = await ctx.db.platform
      .selectFrom("organizationChains")
      .select(["organizationId", "chainId", "contracts", "systemAddress"])
      .where("status", "=", "ready")
      .where("chainId", "in", ctx.chains.ids)
      .execute();
    const withRegistry = chains.filter((row) => row.contracts?.exchangeRateFeedRegistry && row.systemAddress);
    const used = await Promise.all(
      withRegistry.map(
        async (row) =>
          (await systemFeeds(ctx.db.ledgerOn(row.chainId), row.systemAddress!).limit(1).execute()).length > 0,
      ),
    );
    const targets = withRegistry.filter((_, i) => used[i]);
    if (targets.length === 0) return;
    const data = publishRatesCall(await rateProvider(ctx.settings).fetch());
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
  });
}
