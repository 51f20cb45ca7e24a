// The example plugin (plugins/example-notes), loaded with PLUGIN_MODULES, end to end through the real API, database
// and worker processes: its route, task, migration, permission, error, webhook event and cron entry; a period of the
// cron entry that no worker ran is made up once, on the minute, by two worker processes starting at once.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEmitter } from "../host/events/outbox.ts";
import { exampleDb } from "../plugins/example-notes/tables.ts";
import { composed } from "../scripts/platform-context.ts";
import { clearOfMinuteTick } from "./support/minute-tick.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { type SecondWorker, secondWorker } from "./support/second-worker.ts";
import { bootStack, json, type TestStack } from "./support/stack.ts";

// Before the imports above run (composed reads it once), and inherited by the stack's worker processes.
vi.hoisted(() => {
  process.env.PLUGIN_MODULES = "plugins/example-notes/index.ts";
});

describe("the example plugin", () => {
  let stack: TestStack;
  let op: Operator;
  let workers: SecondWorker[] = [];
  let organizationId: string;
  const db = () => exampleDb(op.db.platform);
  const outboxOf = (type: string) =>
    op.db.platform.selectFrom("webhookOutbox").selectAll().where("type", "=", type).orderBy("createdAt").execute();

  beforeAll(async () => {
    stack = await bootStack();
    op = operator(stack);
    organizationId = stack.platform.credentials.organizationId;
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await op?.close();
    await stack?.stop();
  });

  it("creates a note with its event in one transaction, counts its words in a task, and checks its permission", async () => {
    const created = await stack.api("/api/v2/example/notes", {
      method: "POST",
      body: JSON.stringify({ text: "  plugins own their capability " }),
    });
    expect(created.status).toBe(201);
    const note = (await json(created)).data;
    expect(note).toMatchObject({ text: "plugins own their capability" });

    // The task (enqueued by the route with ctx.addJob) writes the count the route then reads.
    await expect
      .poll(async () => (await json(await stack.api(`/api/v2/example/notes/${note.id}`))).data.wordCount, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe(4);
    const list = await json(await stack.api("/api/v2/example/notes?sort=-createdAt"));
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id: note.id, wordCount: 4 });

    // The webhook event, recorded with the note.
    const events = await outboxOf("example.note.created");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      organizationId,
      payload: { id: note.id, text: "plugins own their capability" },
      related: { note: note.id },
      idempotencyKey: `note:${note.id}`,
    });
    expect(events[0]?.id).toMatch(/^evt_/);

    // The migration ran once, recorded under the plugin.
    const steps = await sql<{ name: string }>`select name from platform.plugin_migrations
      where plugin_id = 'example-notes'`.execute(op.db.platform);
    expect(steps.rows).toEqual([{ name: "0001_notes" }]);

    // A member reads but may not write (exampleNote:write is owner and admin).
    const member = await op.keyFor(organizationId, "member");
    const refused = await stack.api("/api/v2/example/notes", {
      method: "POST",
      key: member,
      body: JSON.stringify({ text: "no" }),
    });
    expect(refused.status).toBe(403);
    expect((await json(refused)).code).toBe("USER_NOT_AUTHORIZED");
    expect((await stack.api(`/api/v2/example/notes/${note.id}`, { key: member })).status).toBe(200);

    // Its own error code for an unknown note.
    const missing = await stack.api("/api/v2/example/notes/nope");
    expect(missing.status).toBe(404);
    expect((await json(missing)).code).toBe("EXAMPLE_NOTE_NOT_FOUND");
    const empty = await stack.api("/api/v2/example/notes", { method: "POST", body: JSON.stringify({ text: " " }) });
    expect(empty.status).toBe(400);
  });

  it("fails a job whose payload its task refuses at once, naming the field, with no retry", async () => {
    const { rows } = await sql<{ id: string }>`select (graphile_worker.add_job('example-notes:count-words',
      '{"noteId": 42}'::json, max_attempts => 25)).id::text as id`.execute(op.db.platform);
    const job = async () =>
      (
        await sql<{ attempts: number; cap: number; error: string | null; free: boolean }>`select attempts,
          max_attempts as cap, last_error as error, locked_at is null as free from graphile_worker.jobs
          where id = ${rows[0]?.id}::bigint`.execute(op.db.platform)
      ).rows[0];
    await expect
      .poll(async () => (await job())?.error ?? null, { timeout: 30_000, interval: 200 })
      .toBe(
        "Task example-notes:count-words refused its payload: noteId: Invalid input: expected string, received number",
      );
    expect(await job()).toEqual(expect.objectContaining({ attempts: 1, cap: 1, free: true }));
  });

  it("emits only with the caller's commit, once per idempotency key, and only declared, valid events", async () => {
    const emit = createEmitter(op.db.platform, composed.webhookEvents);
    const before = (await outboxOf("example.note.created")).length;
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto("exampleNotes")
            .values({ id: "rolled-back", organizationId, text: "gone", createdBy: "test" })
            .execute();
          await emit("example.note.created", { id: "rolled-back", text: "gone" }, { organizationId, trx });
          throw new Error("the caller's write fails");
        }),
    ).rejects.toThrow("the caller's write fails");
    expect(await db().selectFrom("exampleNotes").select("id").where("id", "=", "rolled-back").execute()).toEqual([]);
    expect(await outboxOf("example.note.created")).toHaveLength(before);

    const once = { organizationId, idempotencyKey: "same-key" };
    await emit("example.note.created", { id: "n1", text: "first" }, once);
    await emit("example.note.created", { id: "n1", text: "again" }, once);
    const keyed = (await outboxOf("example.note.created")).filter((e) => e.idempotencyKey === "same-key");
    expect(keyed.map((e) => e.payload)).toEqual([{ id: "n1", text: "first" }]);

    await expect(emit("example.note.deleted", {}, { organizationId })).rejects.toThrow("declared by no plugin");
    await expect(emit("example.note.created", { id: 1 }, { organizationId })).rejects.toThrow(
      "does not match its schema",
    );
  });

  it("makes up a missed minute of the cron entry once, on the minute, with two worker processes starting at once", async () => {
    const digests = async (period: Date) =>
      (await db().selectFrom("exampleNoteDigests").select("pid").where("scheduledAt", "=", period).execute()).map(
        (r) => r.pid,
      );
    const lastRun = async () =>
      (
        await sql<{ at: Date | string | null }>`select last_execution as at from graphile_worker._private_known_crontabs
          where identifier = 'example-notes:digest'`.execute(op.db.platform)
      ).rows[0]?.at ?? null;
    // Past this minute's tick (the stack's worker has scheduled its period, if it was up then), and far enough from the
    // next one for the two workers below to start and make up this minute's period before it comes (graphile-worker's
    // backfill, the entry's `fill`, runs when a worker starts): waiting for a tick would take up to a minute.
    await clearOfMinuteTick(20);
    const second = new Date().getUTCSeconds();
    if (second < 2) await new Promise((r) => setTimeout(r, (2 - second) * 1000));
    const period = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    // The stack's worker was up at the tick and ran the period: that run finishes first.
    const last = await lastRun();
    if (last !== null && new Date(last).getTime() === period.getTime()) {
      await expect.poll(async () => (await digests(period)).length, { timeout: 30_000, interval: 200 }).toBe(1);
    }
    // As if no worker had run since the minute before: the entry last ran then, and this period has no digest.
    const minuteBefore = new Date(+period - 60_000);
    await sql`insert into graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
      values ('example-notes:digest', ${minuteBefore}, ${minuteBefore})
      on conflict (identifier) do update set last_execution = excluded.last_execution`.execute(op.db.platform);
    await db().deleteFrom("exampleNoteDigests").where("scheduledAt", "=", period).execute();

    // Each of the two makes the period up as it starts; only one of them schedules it.
    const starts = await Promise.allSettled([secondWorker(stack), secondWorker(stack)]);
    workers = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    for (const s of starts) if (s.status === "rejected") throw s.reason;
    await expect.poll(async () => (await digests(period)).length, { timeout: 30_000, interval: 200 }).toBe(1);
    await new Promise((r) => setTimeout(r, 3000)); // a second run of the period would show by now
    expect(await digests(period)).toHaveLength(1);
    // Every period the entry ran for during the file (this one, and any tick meanwhile): once each, on the minute.
    const runs = (await db().selectFrom("exampleNoteDigests").select("scheduledAt").execute()).map((r) =>
      new Date(r.scheduledAt).toISOString(),
    );
    expect(runs).toEqual([...new Set(runs)]);
    for (const run of runs) expect(new Date(run).getUTCSeconds()).toBe(0);
  });
});
