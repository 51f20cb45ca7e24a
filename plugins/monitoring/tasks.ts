// The cron entry's task (hourly, once across the cluster): prunes request logs older than REQUEST_LOG_RETENTION_DAYS,
// in slices so no single statement holds many locks.
import { sql } from "kysely";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask, NoPayload } from "../../host/worker/define-task.ts";
import type { MonitoringSettings } from "./settings.ts";

const SLICE = 10_000;

export function pruneTask(ctx: PluginContext<never, MonitoringSettings>) {
  return defineTask(NoPayload, async () => {
    const before = new Date(Date.now() - ctx.settings.REQUEST_LOG_RETENTION_DAYS * 86_400_000);
    for (;;) {
      const { numAffectedRows } = await sql`
        delete from platform.monitoring_request_logs where id in (
          select id from platform.monitoring_request_logs where requested_at < ${before} limit ${SLICE})`.execute(
        ctx.db.platform,
      );
      if (Number(numAffectedRows ?? 0) < SLICE) return;
    }
  });
}
