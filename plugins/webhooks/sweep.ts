// The every-minute sweep (crontab): fans out any event whose wake-up job the job key's race lost (see
// migrations.ts), and re-adds the job of any delivery long overdue (its job lost, e.g. to graphile-worker giving up
// after database errors). Re-adding keeps a pending job's time, so a delivery merely waiting in a busy endpoint's
// queue is not moved.
import type { Task } from "graphile-worker";
import { sql } from "kysely";
import type { PluginContext } from "../../host/plugin.ts";
import { enqueueDeliveries } from "./enqueue.ts";
import { fanOut } from "./fan-out.ts";
import { webhooksDb } from "./tables.ts";

const OVERDUE = sql`interval '5 minutes'`;
const SWEEP_LIMIT = 1000;

export function sweepTask(ctx: PluginContext): Task {
  const db = webhooksDb(ctx.db.platform);
  return async () => {
    await fanOut(db);
    const overdue = await db
      .selectFrom("webhookDeliveries")
      .select(["id", "endpointId"])
      .where((eb) =>
        eb.or([
          eb("status", "in", ["pending", "retrying"]),
          eb.and([eb("status", "=", "awaiting-receipt"), eb("nextAttemptAt", "is not", null)]),
        ]),
      )
      .where(sql<boolean>`coalesce(next_attempt_at, created_at) < now() - ${OVERDUE}`)
      .limit(SWEEP_LIMIT)
      .execute();
    await enqueueDeliveries(db, overdue, { preserveRunAt: true });
  };
}
