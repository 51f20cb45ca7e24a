// Custody migrations (moves of an organisation's keys to the HSM) as rows: requested by an operator (the route or the
// CLI), run by the custody:move-keys task (key-move-task.ts), read back by id.
import { z } from "@hono/zod-openapi";
import { v7 as uuidv7 } from "uuid";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { TaskPayload } from "../../host/worker/define-task.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";
import { type CustodyMigrationRow, custodyDb } from "./tables.ts";

export const MOVE_KEYS_TASK = "custody:move-keys";
export const MoveKeysPayload = z.object({ migrationId: z.string() });

/**
 * Starts moving the organisation's keys to the HSM, or answers the move already running; a failed move is resumed
 * where it stopped (its writes keep their Idempotency-Keys). `hsm`: the platform runs with CUSTODY_PROVIDER=pkcs11.
 */
export async function requestKeyMigration(
  db: PlatformDb,
  input: { organizationId: string; requestedBy: string; hsm: boolean },
): Promise<{ migration: CustodyMigrationRow; started: boolean }> {
  if (!input.hsm) throw new ApiError("CUSTODY_MIGRATION_HSM_NOT_CONFIGURED");
  const cdb = custodyDb(db);
  const latest = await cdb
    .selectFrom("custodyMigrations")
    .selectAll()
    .where("organizationId", "=", input.organizationId)
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
  if (latest?.status === "running") return { migration: latest, started: false };
  let migration: CustodyMigrationRow;
  if (latest?.status === "failed") {
    migration = await cdb
      .updateTable("custodyMigrations")
      .set({ status: "running", error: null, updatedAt: new Date() })
      .where("id", "=", latest.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } else {
    const seed = await db
      .selectFrom("custodySeeds")
      .select("provider")
      .where("organizationId", "=", input.organizationId)
      .executeTakeFirst();
    if (!seed || seed.provider === "pkcs11") throw new ApiError("CUSTODY_MIGRATION_NOT_NEEDED");
    const inserted = await cdb
      .insertInto("custodyMigrations")
      .values({
        id: uuidv7(),
        organizationId: input.organizationId,
        status: "running",
        step: "keys",
        requestedBy: input.requestedBy,
      })
      // Two requests at once start one move.
      .onConflict((oc) => oc.column("organizationId").where("status", "=", "running").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!inserted) return requestKeyMigration(db, input);
    migration = inserted;
  }
  await addKeyedJob(db, {
    task: MOVE_KEYS_TASK,
    payload: { migrationId: migration.id } satisfies TaskPayload<typeof MoveKeysPayload>,
    queueName: `custody-migration:${input.organizationId}`,
    jobKey: `custody-migration:${migration.id}`,
  });
  return { migration, started: true };
}

export async function findKeyMigration(db: PlatformDb, organizationId: string, migrationId: string) {
  const row = await custodyDb(db)
    .selectFrom("custodyMigrations")
    .selectAll()
    .where("id", "=", migrationId)
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  if (!row) throw new ApiError("CUSTODY_MIGRATION_NOT_FOUND", { details: { migrationId } });
  return row;
}
