// The webhookDeliveryStats capability: the deliveries counted by status, for plugins that report on them (monitoring's
// metrics) without reading this plugin's table.
import { sql } from "kysely";
import type { WebhookDeliveryStats } from "../../host/capabilities.ts";
import type { PlatformDb } from "../../host/db/database.ts";

export function webhookDeliveryStats(db: PlatformDb): WebhookDeliveryStats {
  return {
    byOutcome: async () =>
      (
        await sql<{ outcome: string; count: number }>`
          select status as outcome, count(*)::int as count from platform.webhook_deliveries group by status`.execute(db)
      ).rows,
  };
}
