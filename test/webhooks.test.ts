// The webhooks plugin end to end: endpoints over the API, events of the example plugin (loaded with PLUGIN_MODULES)
// fanned out from the outbox and delivered to a local receiver, signed so that standardwebhooks verifies them;
// retries with the same evt_id, 410, rotation, isolation between endpoints, replay, organisation scoping, and the
// sweep that makes up for lost jobs.

import { sql } from "kysely";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { createConfiguredCustody } from "../host/custody/custody-provider.ts";
import { createOrganization } from "../plugins/systems/organizations.ts";
import { clearOfMinuteTick } from "./support/minute-tick.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { bootStack, json, type TestStack } from "./support/stack.ts";
import { type Received, type Receiver, webhookReceiver } from "./support/webhook-receiver.ts";

// Before the imports above run (composed reads it once), and inherited by the stack's worker processes.
vi.hoisted(() => {
  process.env.PLUGIN_MODULES = "plugins/example-notes/index.ts";
});

const EVENT = "example.note.created";
const poll = { timeout: 60_000, interval: 100 };
const headersOf = (r: Received) => ({
  "webhook-id": String(r.headers["webhook-id"]),
  "webhook-timestamp": String(r.headers["webhook-timestamp"]),
  "webhook-signature": String(r.headers["webhook-signature"]),
});

describe("webhooks", () => {
  let stack: TestStack;
  let op: Operator;
  let receiver: Receiver;

  const createEndpoint = async (path: string, extra: Record<string, unknown> = {}) => {
    const res = await stack.api("/api/v2/webhooks/endpoints", {
      method: "POST",
      body: JSON.stringify({ url: receiver.url(path), eventTypes: [EVENT], ...extra }),
    });
    expect(res.status).toBe(201);
    return (await json(res)).data as { id: string; secret: string };
  };
  const note = async (text: string) => {
    const res = await stack.api("/api/v2/example/notes", { method: "POST", body: JSON.stringify({ text }) });
    expect(res.status).toBe(201);
    return (await json(res)).data.id as string;
  };
  const remove = (id: string) => stack.api(`/api/v2/webhooks/endpoints/${id}`, { method: "DELETE" });

  beforeAll(async () => {
    stack = await bootStack({ WEBHOOK_RETRY_BASE_SECONDS: "0.2" });
    op = operator(stack);
    receiver = await webhookReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
    await op?.close();
    await stack?.stop();
  });

  it("manages endpoints with validation in the spec's envelope, a catalogue, and organisation scoping", async () => {
    const post = (body: unknown) =>
      stack.api("/api/v2/webhooks/endpoints", { method: "POST", body: JSON.stringify(body) });
    const missing = await post({ eventTypes: [EVENT] });
    expect(missing.status).toBe(400);
    expect(await json(missing)).toMatchObject({ code: "BAD_REQUEST", status: 400, data: { id: "SVC-0001" } });
    const unknown = await post({ url: receiver.url("/x"), eventTypes: ["no.such.event"] });
    expect(unknown.status).toBe(422);
    expect(await json(unknown)).toMatchObject({ code: "WEBHOOK_EVENT_TYPE_UNKNOWN", data: { id: "SVC-9703" } });
    const ftp = await post({ url: "ftp://example.com/hook", eventTypes: [EVENT] });
    expect(ftp.status).toBe(422);
    expect((await json(ftp)).code).toBe("WEBHOOK_URL_NOT_ALLOWED");
    expect((await post({ url: receiver.url("/x"), eventTypes: [] })).status).toBe(400);

    const created = await createEndpoint("/crud", { description: "ours" });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created).toMatchObject({
      url: receiver.url("/crud"),
      eventTypes: [EVENT],
      description: "ours",
      disabled: false,
    });
    const read = await json(await stack.api(`/api/v2/webhooks/endpoints/${created.id}`));
    expect(read.data.secret).toBeUndefined();
    const list = await json(await stack.api("/api/v2/webhooks/endpoints?filter[disabled]=false"));
    expect(list.data.map((e: { id: string }) => e.id)).toContain(created.id);
    expect(list.data.every((e: { secret?: string }) => e.secret === undefined)).toBe(true);
    const patched = await stack.api(`/api/v2/webhooks/endpoints/${created.id}`, {
      method: "PATCH",
      body: JSON.stringify({ description: "changed", disabled: true }),
    });
    expect((await json(patched)).data).toMatchObject({ description: "changed", disabled: true });
    const badPatch = await stack.api(`/api/v2/webhooks/endpoints/${created.id}`, {
      method: "PATCH",
      body: JSON.stringify({ secret: "mine" }),
    });
    expect(badPatch.status).toBe(400);

    // Stored sealed: the secret is not in the row.
    const stored = await sql<{ secretSealed: string }>`select secret_sealed from platform.webhook_endpoints
      where id = ${created.id}`.execute(op.db.platform);
    expect(stored.rows[0]?.secretSealed).toMatch(/^v1:/);
    expect(stored.rows[0]?.secretSealed).not.toContain(created.secret.slice(6));

    const catalogue = await json(await stack.api("/api/v2/webhooks/event-types"));
    const entry = catalogue.data.find((t: { type: string }) => t.type === EVENT);
    expect(entry).toMatchObject({ version: 1, payloadSchema: { type: "object", required: ["id", "text"] } });

    // A member may not manage; another organisation sees nothing of ours.
    const member = await op.keyFor(stack.platform.credentials.organizationId, "member");
    expect((await stack.api("/api/v2/webhooks/endpoints", { key: member })).status).toBe(403);
    const config = loadConfig(stack.env);
    const { organizationId: other } = await createOrganization(
      op.db.platform,
      createConfiguredCustody(config, op.db.platform, loadMasterKey(config)),
      { name: "Elsewhere", defaultChainId: stack.platform.credentials.chainId },
    );
    const theirs = await op.keyFor(other, "owner");
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["GET", "/deliveries"],
      ["POST", "/secret/rotate"],
    ]) {
      const res = await stack.api(`/api/v2/webhooks/endpoints/${created.id}${path}`, {
        method,
        key: theirs,
        ...(method === "PATCH" ? { body: JSON.stringify({ description: "theirs" }) } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await json(res)).code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    }
    expect((await json(await stack.api("/api/v2/webhooks/endpoints", { key: theirs }))).meta.total).toBe(0);

    expect((await remove(created.id)).status).toBe(200);
    expect((await stack.api(`/api/v2/webhooks/endpoints/${created.id}`)).status).toBe(404);
  });

  it("delivers each event signed so that standardwebhooks verifies it; a tampered body or an old timestamp fails", async () => {
    const endpoint = await createEndpoint("/ok");
    const noteId = await note("signed and sealed");
    await expect.poll(() => receiver.received("/ok").length, poll).toBe(1);
    const [delivery] = receiver.received("/ok");
    if (!delivery) throw new Error("no delivery");
    const wh = new Webhook(endpoint.secret);
    const body = wh.verify(delivery.body, headersOf(delivery)) as Record<string, unknown>;
    expect(body).toEqual({
      evt_id: headersOf(delivery)["webhook-id"],
      type: EVENT,
      version: 1,
      lifecycle_state: "final",
      request: { idempotency_key: `note:${noteId}` },
      related: { note: noteId },
      payload: { id: noteId, text: "signed and sealed" },
    });
    expect(body.evt_id).toMatch(/^evt_/);
    expect(Math.abs(Number(headersOf(delivery)["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);

    expect(() => wh.verify(delivery.body.replace("signed", "forged"), headersOf(delivery))).toThrow();
    const old = new Date(Date.now() - 6 * 60 * 1000);
    const stale = {
      ...headersOf(delivery),
      "webhook-timestamp": String(Math.floor(old.getTime() / 1000)),
      "webhook-signature": wh.sign(String(body.evt_id), old, delivery.body),
    };
    expect(() => wh.verify(delivery.body, stale)).toThrow(/too old/);

    // Recorded once the receiver's answer is in, a moment after the receiver saw the request.
    const deliveriesOf = async () => json(await stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}/deliveries`));
    await expect.poll(async () => (await deliveriesOf()).data[0]?.status, poll).toBe("succeeded");
    const deliveries = await deliveriesOf();
    expect(deliveries.meta.total).toBe(1);
    expect(deliveries.data[0]).toMatchObject({
      evtId: body.evt_id,
      type: EVENT,
      lifecycleState: "final",
      attempt: 1,
      status: "succeeded",
      responseStatus: 204,
      nextAttemptAt: null,
    });
    expect(deliveries.data[0].deliveredAt).not.toBeNull();

    // A retry and a replay send the same evt_id again; repeating either with its Idempotency-Key sends nothing more.
    const retry = () =>
      stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}/deliveries/${deliveries.data[0].id}/retry`, {
        method: "POST",
        headers: { "Idempotency-Key": `retry-${endpoint.id}` },
      });
    const retried = await retry();
    expect(retried.status).toBe(202);
    expect(retried.headers.get("idempotency-key")).toBe(`retry-${endpoint.id}`);
    await expect.poll(() => receiver.received("/ok").length, poll).toBe(2);
    const retriedAgain = await retry();
    expect(retriedAgain.status).toBe(202);
    expect(retriedAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(retriedAgain)).toEqual(await json(retried));
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const replayWith = (since: string) =>
      stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}/replay`, {
        method: "POST",
        headers: { "Idempotency-Key": `replay-${endpoint.id}` },
        body: JSON.stringify({ since }),
      });
    const replay = await replayWith(since);
    expect(replay.status).toBe(202);
    expect((await json(replay)).data.replayed).toBeGreaterThanOrEqual(1);
    await expect.poll(() => receiver.received("/ok").length, poll).toBeGreaterThanOrEqual(3);
    expect((await replayWith(since)).headers.get("idempotent-replayed")).toBe("true");
    expect((await json(await replayWith(new Date(0).toISOString()))).code).toBe("IDEMPOTENCY_KEY_REUSED");
    const ids = receiver.received("/ok").map((r) => headersOf(r)["webhook-id"]);
    expect(ids.filter((id) => id === body.evt_id).length).toBe(3);
    const unknownDelivery = await stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}/deliveries/nope/retry`, {
      method: "POST",
    });
    expect((await json(unknownDelivery)).code).toBe("WEBHOOK_DELIVERY_NOT_FOUND");
    await remove(endpoint.id);
  });

  it("retries a failing receiver with backoff: five failures then success bring the same evt_id", async () => {
    receiver.on("/flaky", (_r, count) => ({ status: count <= 5 ? 500 : 200 }));
    const endpoint = await createEndpoint("/flaky");
    await note("try, try again");
    await expect.poll(() => receiver.received("/flaky").length, poll).toBe(6);
    const attempts = receiver.received("/flaky");
    expect(new Set(attempts.map((r) => headersOf(r)["webhook-id"])).size).toBe(1);
    for (const attempt of attempts) new Webhook(endpoint.secret).verify(attempt.body, headersOf(attempt));
    // Waits grow (0.2 s doubling, jittered).
    const gaps = attempts.slice(1).map((r, i) => r.at - (attempts[i]?.at ?? 0));
    expect(gaps[4]).toBeGreaterThan(gaps[0] ?? 0);
    await expect
      .poll(
        async () => (await json(await stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}/deliveries`))).data[0],
        poll,
      )
      .toMatchObject({ attempt: 6, status: "succeeded", responseStatus: 200 });
    await remove(endpoint.id);
  });

  it("disables an endpoint that answers 410", async () => {
    receiver.on("/gone", () => ({ status: 410 }));
    const endpoint = await createEndpoint("/gone");
    await note("anyone there?");
    await expect
      .poll(async () => (await json(await stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}`))).data.disabled, poll)
      .toBe(true);
    expect(receiver.received("/gone")).toHaveLength(1);
    const deliveries = await json(await stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}/deliveries`));
    expect(deliveries.data[0]).toMatchObject({ status: "failed", responseStatus: 410, attempt: 1 });
    await remove(endpoint.id);
  });

  it("signs with both secrets for a while after a rotation", async () => {
    const endpoint = await createEndpoint("/rotated");
    const rotated = await stack.api(`/api/v2/webhooks/endpoints/${endpoint.id}/secret/rotate`, { method: "POST" });
    expect(rotated.status).toBe(200);
    const { secret } = (await json(rotated)).data;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);
    await note("two keys");
    await expect.poll(() => receiver.received("/rotated").length, poll).toBe(1);
    const [delivery] = receiver.received("/rotated");
    if (!delivery) throw new Error("no delivery");
    const signatures = headersOf(delivery)["webhook-signature"].split(" ");
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith("v1,"))).toBe(true);
    new Webhook(secret).verify(delivery.body, headersOf(delivery));
    new Webhook(endpoint.secret).verify(delivery.body, headersOf(delivery));
    // Each signature is one secret's: either alone verifies with its own secret only.
    const only = (signature: string | undefined) => ({
      ...headersOf(delivery),
      "webhook-signature": String(signature),
    });
    new Webhook(secret).verify(delivery.body, only(signatures[0]));
    new Webhook(endpoint.secret).verify(delivery.body, only(signatures[1]));
    expect(() => new Webhook(secret).verify(delivery.body, only(signatures[1]))).toThrow();
    await remove(endpoint.id);
  });

  it("never lets a slow or failing endpoint delay another's deliveries", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver.on("/slow", async () => {
      await held;
      return { status: 200 };
    });
    receiver.on("/failing", () => ({ status: 503, headers: { "retry-after": "1" } }));
    const slow = await createEndpoint("/slow");
    const failing = await createEndpoint("/failing");
    const fast = await createEndpoint("/fast");
    for (const text of ["one", "two", "three"]) await note(text);
    // The fast endpoint gets all three while the slow one still holds its first.
    await expect.poll(() => receiver.received("/fast").length, { timeout: 10_000, interval: 50 }).toBe(3);
    // Held (one drain may send several at once) and failing, while the fast one got everything.
    await expect.poll(() => receiver.received("/slow").length, poll).toBeGreaterThanOrEqual(1);
    await expect.poll(() => receiver.received("/failing").length, poll).toBeGreaterThanOrEqual(1);
    release();
    await expect
      .poll(() => new Set(receiver.received("/slow").map((r) => headersOf(r)["webhook-id"])).size, poll)
      .toBe(3);
    // 503 with Retry-After: 1: the same event is tried again about a second later.
    const attemptsOfFirst = () => {
      const all = receiver.received("/failing");
      return all.filter((r) => headersOf(r)["webhook-id"] === headersOf(all[0] as Received)["webhook-id"]);
    };
    await expect.poll(() => attemptsOfFirst().length, poll).toBeGreaterThanOrEqual(2);
    const [first, second] = attemptsOfFirst();
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
    for (const endpoint of [slow, failing, fast]) await remove(endpoint.id);
  });

  it("sweeps up an event whose wake-up was lost and a delivery whose job was lost", async () => {
    // Only the sweep run below may deliver what this test loses, not the sweep's own crontab.
    await clearOfMinuteTick(10);
    const endpoint = await createEndpoint("/swept");
    const organizationId = stack.platform.credentials.organizationId;
    const db = op.db.platform;
    // An event recorded without its wake-up job (as when the job key's race drops it): the queue row only.
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx); // the triggers do not fire
      await sql`insert into platform.webhook_outbox (id, organization_id, type, payload)
        values ('evt_lost_wakeup', ${organizationId}, ${EVENT}, '{"id":"n","text":"lost"}')`.execute(trx);
      await sql`insert into platform.webhook_fan_out_queue (evt_id) values ('evt_lost_wakeup')`.execute(trx);
    });
    // A delivery long overdue with no job.
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`insert into platform.webhook_outbox (id, organization_id, type, payload)
        values ('evt_lost_job', ${organizationId}, ${EVENT}, '{"id":"m","text":"lost"}')`.execute(trx);
    });
    await sql`insert into platform.webhook_deliveries (id, endpoint_id, evt_id, type, lifecycle_state, created_at)
      values ('lost-job', ${endpoint.id}, 'evt_lost_job', ${EVENT}, 'final', now() - interval '1 hour')`.execute(db);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received("/swept")).toHaveLength(0);

    // The crontab's run, now rather than at the next minute.
    await sql`select graphile_worker.add_job('webhooks:sweep', '{}'::json)`.execute(db);
    await expect.poll(() => receiver.received("/swept").length, poll).toBe(2);
    const ids = receiver.received("/swept").map((r) => headersOf(r)["webhook-id"]);
    expect(ids.sort()).toEqual(["evt_lost_job", "evt_lost_wakeup"]);
    for (const r of receiver.received("/swept")) new Webhook(endpoint.secret).verify(r.body, headersOf(r));
    await remove(endpoint.id);
  });
});
