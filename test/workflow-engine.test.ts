// Workflow-engine recovery over HTTP against the real stack, on graphile-worker: the doctor finds a job made to fail
// permanently (and only the organisation's own), recover-stuck-workflow purges it (refused while a job is active or
// when there is nothing to purge), force-redeploy registers the running worker again, cleanup-stale-deployments hands
// a dead process's jobs on; only a platform operator (no organisation role, owner included, grants it) runs them;
// every call audited with URL credentials REDACTED.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantPlatformRole } from "../plugins/access/platform-roles.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { bootStack, json, type TestStack } from "./support/stack.ts";

const BASE = "/api/v2/admin/operator/workflow-engine";

describe("workflow-engine recovery on graphile-worker", () => {
  let stack: TestStack;
  let ops: Operator;
  let org: string;
  const keys: Record<string, string> = {};

  const post = async (path: string, body: unknown, key?: string) => {
    const res = await stack.api(`${BASE}/${path}`, { method: "POST", body: JSON.stringify(body), key });
    return { status: res.status, body: await json(res) };
  };
  const doctor = async (key?: string) => {
    const { status, body } = await post("doctor", {}, key);
    expect(status).toBe(200);
    return body.data;
  };
  /** A job of the provision task that fails at once (a chain the platform does not serve), one attempt only. */
  const addFailingJob = async (organizationId: string, key: string, runAt = "now()") => {
    const { rows } = await sql<{ id: string }>`
      select (graphile_worker.add_job('systems:provision', ${JSON.stringify({ organizationId, chainId: 999 })}::json,
        job_key => ${key}, max_attempts => 1, run_at => ${sql.raw(runAt)})).id::text as id`.execute(ops.db.platform);
    return rows[0].id;
  };
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      // A request may meet a kept-alive connection the host just closed: read again.
      const value = await read().catch((error: unknown) => error);
      if (!(value instanceof Error) && done(value as T)) return value as T;
      if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeAll(async () => {
    stack = await bootStack();
    ops = operator(stack);
    org = stack.platform.credentials.organizationId;
    keys.auditor = await ops.keyFor(org, "auditor");
    keys.owner = await ops.keyFor(org, "owner");
    const other = await ops.organization("Other Org");
    keys.other = await ops.keyFor(other, "owner");
    // A platform operator whose active organisation is the other one: sees and recovers that organisation's jobs only.
    const operatorThere = await ops.member(other, "member");
    await grantPlatformRole(ops.db.platform, operatorThere.userId, "platformOperator");
    keys.otherOperator = operatorThere.key;
    keys.otherOperatorUser = operatorThere.userId;
  });
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  it("reads the doctor: API health, the worker schema and version, worker processes, tasks", async () => {
    const readout = await doctor();
    expect(readout.ingress).toMatchObject({ status: "ok", latencyMs: expect.any(Number) });
    expect(readout.admin).toMatchObject({ status: "ok", latencyMs: expect.any(Number), version: "0.17.3" });
    expect(readout.deployments.status).toBe("ok");
    expect(readout.deployments.items[0]).toEqual({
      id: expect.any(String),
      serviceUrl: expect.stringMatching(/^worker:\/\/[^/]+\/\d+$/),
      createdAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(readout.services.items.map((s: { name: string }) => s.name)).toContain("systems_3aprovision");
    expect(readout.invocations.byStatus).toMatchObject({ failed: 0 });
  });

  it("finds a job that failed permanently, purges it, and refuses a second purge", async () => {
    const id = await addFailingJob(org, "provision:stuck-1");
    const readout = await until(doctor, (d) => d.invocations.recentFailures.some((f: { id: string }) => f.id === id));
    const failure = readout.invocations.recentFailures.find((f: { id: string }) => f.id === id);
    expect(failure).toEqual({
      id,
      serviceName: "systems_3aprovision",
      serviceKey: "provision_3astuck-1",
      failedAt: expect.stringMatching(/^\d{4}-/),
      errorMessage: expect.stringContaining("Chain 999 is not served"),
    });
    expect(readout.invocations.status).toBe("degraded");
    expect(readout.invocations.byStatus.failed).toBe(1);

    // Acting in another organisation, even a platform operator sees none of it and cannot purge it.
    const foreign = await doctor(keys.otherOperator);
    expect(foreign.invocations.recentFailures).toEqual([]);
    const { serviceName, serviceKey } = failure;
    const refused = await post("recover-stuck-workflow", { serviceName, serviceKey }, keys.otherOperator);
    expect([refused.status, refused.body.code, refused.body.data.reason]).toEqual([
      409,
      "WORKFLOW_ENGINE_WORKFLOW_RETRY_BLOCKED",
      "no-failed-invocation",
    ]);

    const recovered = await post("recover-stuck-workflow", { serviceName, serviceKey });
    expect([recovered.status, recovered.body.data]).toEqual([200, { acknowledged: true }]);
    const after = await doctor();
    expect(after.invocations.recentFailures.map((f: { id: string }) => f.id)).not.toContain(id);
    expect(after.invocations.byStatus.failed).toBe(0);
    const again = await post("recover-stuck-workflow", { serviceName, serviceKey });
    expect([again.status, again.body.data.reason, again.body.data.invocationIds]).toEqual([
      409,
      "no-failed-invocation",
      [],
    ]);
  });

  it("refuses to purge a job that is still to run, naming it", async () => {
    const id = await addFailingJob(org, "provision:later", "now() + interval '1 hour'");
    const refused = await post("recover-stuck-workflow", {
      serviceName: "systems_3aprovision",
      serviceKey: "provision_3alater",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.data).toMatchObject({ reason: "invocation-active", invocationIds: [id] });
    await sql`delete from graphile_worker._private_jobs where id = ${id}::bigint`.execute(ops.db.platform);
  });

  it("registers the running worker again; an unknown service URL is not found", async () => {
    const before = await doctor();
    const { serviceUrl, id } = before.deployments.items[0];
    const redeployed = await post("force-redeploy", { serviceUrl });
    expect(redeployed.status).toBe(200);
    expect(redeployed.body.data).toEqual({ acknowledged: true, deploymentId: expect.any(String) });
    expect(redeployed.body.data.deploymentId).not.toBe(id);
    const ids = (await doctor()).deployments.items.map((d: { id: string }) => d.id);
    expect(ids).toEqual(expect.arrayContaining([id, redeployed.body.data.deploymentId]));

    const unknown = await post("force-redeploy", { serviceUrl: "worker://nowhere/1" });
    expect([unknown.status, unknown.body.code]).toEqual([404, "WORKFLOW_ENGINE_DEPLOYMENT_NOT_FOUND"]);
  });

  it("cleans up a stopped worker process: its jobs are released, its deployment removed", async () => {
    const db = ops.db.platform;
    await sql`insert into platform.worker_deployments (id, pool_id, service_url, created_at)
      values ('dead-deployment', 'dead-pool', 'worker://gone/1', now() - interval '1 hour')`.execute(db);
    const jobId = await addFailingJob(org, "provision:held", "now() + interval '1 hour'");
    await sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'dead-pool'
      where id = ${jobId}::bigint`.execute(db);
    expect((await doctor()).deployments.status).toBe("degraded");

    const live = (await doctor()).deployments.items.find(
      (d: { serviceUrl: string }) => d.serviceUrl !== "worker://gone/1",
    );
    const cleaned = await post("cleanup-stale-deployments", { serviceUrl: live.serviceUrl });
    expect([cleaned.status, cleaned.body.data]).toEqual([200, { acknowledged: true }]);
    const readout = await doctor();
    expect(readout.deployments.items.map((d: { serviceUrl: string }) => d.serviceUrl)).not.toContain("worker://gone/1");
    expect(readout.deployments.status).toBe("ok");
    const { rows } = await sql<{ lockedBy: string | null }>`
      select locked_by from graphile_worker._private_jobs where id = ${jobId}::bigint`.execute(db);
    expect(rows).toEqual([{ lockedBy: null }]);
    await sql`delete from graphile_worker._private_jobs where id = ${jobId}::bigint`.execute(db);

    const missing = await post("cleanup-stale-deployments", { serviceUrl: "worker://nowhere/2" });
    expect([missing.status, missing.body.code]).toEqual([404, "WORKFLOW_ENGINE_DEPLOYMENT_NOT_FOUND"]);
  });

  it("refuses every route to organisation roles, another organisation's owner included, before reading the body", async () => {
    const bodies: Record<string, unknown> = {
      doctor: {},
      "force-redeploy": { serviceUrl: "worker://nowhere/1" },
      "cleanup-stale-deployments": { serviceUrl: "worker://nowhere/1", forceDrain: true },
      "recover-stuck-workflow": { serviceName: "x", serviceKey: "y" },
    };
    const calls = Object.entries(bodies).flatMap(([path, body]) =>
      [keys.other, keys.owner, keys.auditor].flatMap((key) => [post(path, body, key), post(path, { bad: 1 }, key)]),
    );
    for (const refused of await Promise.all(calls)) {
      expect([refused.status, refused.body.code]).toEqual([403, "OFFCHAIN_USER_PERMISSION_REQUIRED"]);
      expect(refused.body.data).toMatchObject({
        requiredPermission: "platform:operate",
        requiredRoles: ["platformOperator"],
      });
    }
  });

  it("follows the platform role granted and revoked by the CLI", async () => {
    const owner = await ops.member(org, "owner");
    // Asynchronously: the host runs in this process, and a blocked event loop would let its keep-alive sockets expire
    // under the client's next request (ECONNRESET).
    const cli = async (...args: string[]) =>
      (
        await promisify(execFile)("node_modules/.bin/tsx", ["scripts/cli.ts", ...args], {
          env: { ...process.env, ...stack.env },
          encoding: "utf8",
        })
      ).stdout;
    expect(JSON.parse(await cli("platform-operator", "grant", "--user", owner.userId))).toMatchObject({
      platformRoles: ["platformOperator"],
    });
    // The key's cached row is dropped when the CLI's write NOTIFYs this host.
    const doctorStatus = () => post("doctor", {}, owner.key).then((res) => res.status);
    await until(doctorStatus, (status) => status === 200);
    await cli("platform-operator", "revoke", "--user", owner.userId);
    await until(doctorStatus, (status) => status === 403);
    await cli("platform-operator", "revoke", "--user", keys.otherOperatorUser);
    const holders = JSON.parse(await cli("platform-operator", "list"));
    expect(holders.map((h: { email: string }) => h.email)).toEqual([`owner+${org}@localhost`]); // the local owner
    await expect(cli("platform-operator", "revoke", "--user", holders[0].userId)).rejects.toThrow(
      /last platformOperator/,
    );
  });

  it("validates bodies", async () => {
    const bad = await post("recover-stuck-workflow", { serviceName: "host:send", serviceKey: "x" });
    expect([bad.status, bad.body.code]).toEqual([400, "BAD_REQUEST"]);
    const notUrl = await post("force-redeploy", { serviceUrl: "not a url" });
    expect(notUrl.status).toBe(400);
  });

  it("audits every call, refused ones included, with credentials inside URLs REDACTED", async () => {
    await post("force-redeploy", { serviceUrl: "https://operator:s3cret-pass@engine.example/?token=t0ken" });
    const { rows } = await sql<{ operation: string; requestBody: unknown; status: number; organizationId: string }>`
      select operation, request_body, status, organization_id from platform.operations_audit order by created_at`.execute(
      ops.db.platform,
    );
    const operations = rows.map((r) => r.operation);
    for (const operation of ["doctor", "recover-stuck-workflow", "force-redeploy", "cleanup-stale-deployments"]) {
      expect(operations).toContain(operation);
    }
    expect(rows.map((r) => r.status)).toEqual(expect.arrayContaining([200, 403, 404, 409]));
    expect(rows.at(-1)).toMatchObject({
      operation: "force-redeploy",
      requestBody: { serviceUrl: "https://REDACTED:REDACTED@engine.example/?token=REDACTED" },
      status: 404,
    });
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain("s3cret-pass");
    expect(stored).not.toContain("t0ken");
  });
});
