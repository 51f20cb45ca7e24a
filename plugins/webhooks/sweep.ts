// The every-minute sweep (crontab): fans out any event whose wake-up job the job key's race lost (see
// migrations.ts), and wakes the drain of any endpoint with a delivery long overdue (its job lost, e.g. to
// graphile-worker giving up after database errors). A pending wake-up keeps its time, so a drain merely waiting
// behind busy endpoints is not moved.
import { sql } from "kysely";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask, NoPayload } from "../../host/worker/define-task.ts";
import { wakeEndpoints } from "./enqueue.ts";
import { fanOut } from "./fan-out.ts";
import { webhooksDb } from "./tables.ts";

const OVERDUE = sql`interval '5 minutes'`;
const SWEEP_LIMIT = 1000;

export function sweepTask(ctx: PluginContext) {
  const db = webhooksDb(ctx.db.platform);
  return defineTask(NoPayload, async () => {
    await fanOut(db);
    const overdue = await db
      .selectFrom("webhookDeliveries")
      .select("endpointId")
      .distinct()
      .where((eb) =>
        eb.or([
          eb("status", "in", ["pending", "retrying"]),
          eb.and([eb("status", "=", "awaiting-receipt"), eb("nextAttemptAt", "is not", null)]),
        ]),
      )
      .where(sql<boolean>`coalesce(next_attempt_at, created_at) < now() - ${OVERDUE}`)
      .limit(SWEEP_LIMIT)
      .execute();
    await wakeEndpoints(
      db,
      overdue.map((d) => d.endpointId),
      { keepEarlier: true },
    );
  });
}
