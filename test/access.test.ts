// Access over HTTP against the real stack: the first-start key reads everything the API documents; API keys are
// created (never outranking the calling key), listed and revoked at once on every host; members' roles are replaced
// by owners and admins, the last owner keeps its role; roles stay enforced for everyone else; organisations are apart.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLES } from "../host/auth/permissions.ts";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { grantRole } from "../plugins/access/members.ts";
import { createUser } from "../plugins/access/users.ts";
import { ROOT } from "../scripts/platform.ts";
import { type Member, type Operator, operator } from "./support/organizations.ts";
import { type SecondHost, secondHost } from "./support/second-host.ts";
import { bootStack, json, platformDbUrl, type TestStack } from "./support/stack.ts";

const run = promisify(execFile);
const KEYS = "/api/v2/api-keys";
const MEMBERS = "/api/v2/organization/members";
const HOUR = 3_600_000;

describe("access over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  let orgA: string;
  let ownerKey: string;
  let ownerId: string;
  let plain: Member;
  let orgB: string;
  let ownerB: Member;

  async function call(
    method: string,
    path: string,
    body?: unknown,
    key = ownerKey,
  ): Promise<{ status: number; body: Awaited<ReturnType<typeof json>> }> {
    const res = await stack.api(path, { method, key, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: await json(res) };
  }
  const get = (path: string, key = ownerKey) => call("GET", path, undefined, key);
  const createKey = (body: Record<string, unknown>, key = ownerKey) => call("POST", KEYS, body, key);
  const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

  beforeAll(async () => {
    // Smart wallets allowed, so that the GET walk reaches a provisioned one.
    stack = await bootStack({ ACCOUNT_ABSTRACTION_ENABLED: "true" });
    ops = operator(stack);
    orgA = stack.platform.credentials.organizationId;
    ownerKey = stack.platform.credentials.apiKey;
    ownerId = (await get("/api/v2/auth/session")).body.data.userId;
    plain = await ops.member(orgA, "member", "Mia Member");
    orgB = await ops.organization("Organisation B");
    ownerB = await ops.member(orgB, "owner", "Bo Owner");
  }, 240_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  describe("the first-start key", () => {
    it("belongs to an owner holding every role of the permission table", async () => {
      const { body } = await get("/api/v2/auth/session");
      expect([...body.data.roles].sort()).toEqual([...ROLES].sort());
    });

    it("answers 200 on every GET route of the OpenAPI document (path parameters filled where the fixture can)", async () => {
      const doc = await json(await stack.api("/api/v2/spec.json"));
      const wallet = (await get(`${MEMBERS}?filter[userId]=${ownerId}`)).body.data[0].wallet;
      const template = (await get("/api/v2/settings/compliance-templates")).body.data[0].id;
      const created = await stack.api("/api/v2/tokens", {
        method: "POST",
        headers: { prefer: "wait=30" },
        body: JSON.stringify({ templateId: "deposit", name: "Access Deposit", symbol: "ACCD", decimals: 2 }),
      });
      expect(created.status).toBe(200);
      const write = await json(created);
      const token = write.data.tokenAddress;
      const policy = await stack.api("/api/v2/settings/executor-policy", {
        method: "PUT",
        body: JSON.stringify({ accountAbstractionEnabled: true }),
      });
      expect(policy.status).toBe(200);
      const provisioned = await stack.api("/api/v2/smart-wallets", { method: "POST", headers: { prefer: "wait=60" } });
      expect(provisioned.status).toBe(200);
      const smartWallet = (await json(provisioned)).data.address;
      const fill: Record<string, string> = {
        participantId: ownerId,
        accountAddress: wallet,
        address: token,
        tokenAddress: token,
        transactionId: write.data.transactionId,
        transactionHash: write.meta.txHashes[0],
        preset: "trailing24Hours",
      };
      // Values a route needs beyond its schema's required ones.
      const extra: Record<string, Record<string, string>> = {
        "/api/v2/tokens/{tokenAddress}/pre-check": { to: wallet },
      };
      const ids: Record<string, string> = {
        "/api/v2/token-templates/{id}": "deposit",
        "/api/v2/settings/compliance-templates/{id}": template,
      };
      const now = Date.now();
      const queryValue = (name: string, schema: { enum?: string[]; pattern?: string } = {}) =>
        schema.enum?.[0] ??
        (schema.pattern?.includes("0x") ? wallet : undefined) ??
        { from: new Date(now - 2 * HOUR).toISOString(), to: new Date(now).toISOString(), amount: "1" }[name];

      const answers: string[] = [];
      const skipped: string[] = [];
      let reached = 0;
      for (const [template, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI operation object
        const operation = item.get as any;
        if (!operation) continue;
        const path = template
          .replace("/api/v2/smart-wallets/{address}", `/api/v2/smart-wallets/${smartWallet}`)
          .replace(/\{(\w+)\}/g, (whole, name) => (name === "id" ? ids[template] : fill[name]) ?? whole);
        // An add-on instance is made by its own e2e file (token sales, XvP settlements, yield schedules), not this one.
        if (path.includes("{") || (template.startsWith("/api/v2/addons/") && template.includes("{"))) {
          skipped.push(template);
          continue;
        }
        const query = new URLSearchParams(extra[template]);
        for (const p of operation.parameters ?? []) {
          if (p.in !== "query" || !p.required) continue;
          const value = queryValue(p.name, p.schema);
          if (value === undefined) throw new Error(`No value for the required ${p.name} of GET ${template}`);
          query.set(p.name, value);
        }
        const target = query.size > 0 ? `${path}?${query}` : path;
        const res = await stack.api(target);
        reached += 1;
        if (res.status !== 200) answers.push(`GET ${target}: ${res.status} ${(await res.text()).slice(0, 200)}`);
      }
      console.info(`GET ${reached} routes; not filled: ${skipped.join(", ")}`);
      expect(answers).toEqual([]);
      expect(reached).toBeGreaterThanOrEqual(40);
    });
  });

  describe("API keys", () => {
    it("are created for the caller, shown once, and listed without the secret", async () => {
      const { status, body } = await createKey({ name: "ci", scope: "read" });
      expect(status).toBe(201);
      expect(body.data).toMatchObject({ name: "ci", scope: "read", organizationId: orgA, userId: ownerId });
      expect(body.data.key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
      expect(body.data.prefix).toBe(body.data.key.slice(0, 10));
      expect(body.data).toMatchObject({ expiresAt: null, lastUsedAt: null, revokedAt: null });

      const listed = await get(`${KEYS}?filter[id]=${body.data.id}`);
      expect(listed.status).toBe(200);
      expect(listed.body.meta.total).toBe(1);
      expect(Object.keys(listed.body.data[0]).sort()).toEqual(
        [
          "createdAt",
          "expiresAt",
          "id",
          "lastUsedAt",
          "name",
          "organizationId",
          "prefix",
          "revokedAt",
          "scope",
          "userId",
        ].sort(),
      );
      expect(JSON.stringify(listed.body)).not.toContain(body.data.key);
      const facets = (await get(`${KEYS}?filter[scope]=read`)).body;
      expect(facets.meta.facets.scope).toEqual([{ value: "read", count: facets.meta.total }]);
    });

    it("a read key cannot create keys, revoke or write (403 API_KEY_READ_ONLY), but reads", async () => {
      const read = (await createKey({ name: "reader", scope: "read" })).body.data;
      for (const answer of [
        await createKey({ name: "more", scope: "read" }, read.key),
        await call("DELETE", `${KEYS}/${read.id}`, undefined, read.key),
        await call("POST", "/api/v2/tokens", { templateId: "deposit", name: "X", symbol: "X" }, read.key),
      ]) {
        expect([answer.status, answer.body.code]).toEqual([403, "API_KEY_READ_ONLY"]);
      }
      expect((await get(KEYS, read.key)).status).toBe(200);
    });

    it("a key with an expiry creates no key without one, nor one expiring later (403 API_KEY_SCOPE_EXCEEDED)", async () => {
      const expiring = (await createKey({ name: "expiring", scope: "read-write", expiresAt: inHours(24) })).body.data;
      for (const body of [
        { name: "forever", scope: "read" },
        { name: "later", scope: "read", expiresAt: inHours(48) },
      ]) {
        const refused = await createKey(body, expiring.key);
        expect([refused.status, refused.body.code, refused.body.data.id]).toEqual([
          403,
          "API_KEY_SCOPE_EXCEEDED",
          "SVC-12140",
        ]);
      }
      const sooner = await createKey({ name: "sooner", scope: "read", expiresAt: inHours(1) }, expiring.key);
      expect(sooner.status).toBe(201);
      const past = await createKey({ name: "past", scope: "read", expiresAt: "2020-01-01T00:00:00Z" });
      expect([past.status, past.body.code, past.body.data.issues[0].path]).toEqual([400, "BAD_REQUEST", "expiresAt"]);
      const bad = await createKey({ name: "bad", scope: "admin" });
      expect(bad.status).toBe(400);
    });

    it("a session may create any scope and expiry", async () => {
      const masterKey = loadMasterKey(loadConfig(stack.env));
      const email = `session-${Math.random().toString(36).slice(2)}@example.com`;
      const { userId } = await createUser(ops.db.platform, masterKey, {
        email,
        displayName: "S",
        password: "pw-for-tests",
      });
      await grantRole(ops.db.platform, { organizationId: orgA, userId, role: "member" });
      const signIn = await stack.api("/api/v2/auth/sign-in", {
        key: null,
        method: "POST",
        body: JSON.stringify({ email, password: "pw-for-tests" }),
      });
      const cookie = signIn.headers
        .getSetCookie()
        .find((c) => c.startsWith("svc_session="))!
        .split(";")[0];
      const res = await stack.api(KEYS, {
        key: null,
        method: "POST",
        headers: { cookie },
        body: JSON.stringify({ name: "from a session", scope: "read-write" }),
      });
      expect(res.status).toBe(201);
      expect((await json(res)).data).toMatchObject({ userId, scope: "read-write", expiresAt: null });
    });

    it("bad input is a 400 in the envelope, never a 500", async () => {
      for (const [method, path, body] of [
        ["POST", KEYS, {}],
        ["POST", KEYS, { name: "x", scope: "read", expiresAt: "tomorrow" }],
        ["POST", KEYS, { name: "x".repeat(101), scope: "read" }],
        ["POST", KEYS, { name: "x", scope: "read", extra: true }],
        ["PUT", `${MEMBERS}/${ownerId}/roles`, { roles: "owner" }],
        ["PUT", `${MEMBERS}/${ownerId}/roles`, { roles: ["owner", 7] }],
        ["DELETE", `${KEYS}/${"k".repeat(65)}`, undefined],
        ["GET", `${KEYS}?filter[lastUsedAt][gt]=yesterday`, undefined],
        ["GET", `${MEMBERS}?sort=wallet`, undefined],
      ] as const) {
        const answer = await call(method, path, body);
        expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 400, expect.any(String)]);
      }
    });

    describe("revoked", () => {
      let replica: SecondHost;
      beforeAll(() => {
        replica = secondHost(stack);
      });
      afterAll(() => replica?.stop());

      it("is refused at once (401), on this host and on another sharing the database", async () => {
        const doomed = (await createKey({ name: "doomed", scope: "read" })).body.data;
        // Both hosts hold the key's row in their short caches before it is revoked.
        for (let i = 0; i < 3; i += 1) {
          expect((await get("/api/v2/auth/session", doomed.key)).status).toBe(200);
          expect((await replica.api("/api/v2/auth/session", doomed.key)).status).toBe(200);
          await new Promise((r) => setTimeout(r, 100));
        }
        const revoked = await call("DELETE", `${KEYS}/${doomed.id}`);
        expect(revoked.status).toBe(200);
        expect(revoked.body.data).toMatchObject({ id: doomed.id, revokedAt: expect.any(String) });
        expect(revoked.body.data.key).toBeUndefined();
        const here = await get("/api/v2/auth/session", doomed.key);
        const there = await replica.api("/api/v2/auth/session", doomed.key);
        expect([here.status, here.body.code]).toEqual([401, "UNAUTHORIZED"]);
        expect(there.status).toBe(401);
        const again = await call("DELETE", `${KEYS}/${doomed.id}`);
        expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
        // Its use was recorded (off the request's path).
        const listed = await get(`${KEYS}?filter[id]=${doomed.id}`);
        expect(listed.body.data[0].lastUsedAt).not.toBeNull();
        expect(listed.body.data[0].revokedAt).toBe(revoked.body.data.revokedAt);
        const active = await get(`${KEYS}?filter[revokedAt][isEmpty]=&page[limit]=200`);
        expect(active.body.data.map((k: { id: string }) => k.id)).not.toContain(doomed.id);
      });
    });

    it("recording a key's use does not make every host drop its caches (no NOTIFY); other changes do", async () => {
      const listener = new pg.Client({ connectionString: platformDbUrl(stack.env) });
      await listener.connect();
      try {
        let notified = 0;
        listener.on("notification", () => {
          notified += 1;
        });
        await listener.query("listen platform_changed");
        const { id } = (await createKey({ name: "watched", scope: "read" })).body.data;
        await new Promise((r) => setTimeout(r, 300));
        notified = 0;
        await ops.db.platform.updateTable("apiKeys").set({ lastUsedAt: new Date() }).where("id", "=", id).execute();
        await new Promise((r) => setTimeout(r, 300));
        expect(notified).toBe(0);
        await ops.db.platform.updateTable("apiKeys").set({ name: "renamed" }).where("id", "=", id).execute();
        await new Promise((r) => setTimeout(r, 300));
        expect(notified).toBe(1);
      } finally {
        await listener.end();
      }
    });

    it("members see and revoke only their own keys; owners and admins the organisation's", async () => {
      const mine = (await createKey({ name: "mia's", scope: "read" }, plain.key)).body.data;
      expect(mine.userId).toBe(plain.userId);
      const theirs = await get(`${KEYS}?page[limit]=200`, plain.key);
      expect(new Set(theirs.body.data.map((k: { userId: string }) => k.userId))).toEqual(new Set([plain.userId]));
      const all = await get(`${KEYS}?page[limit]=200`);
      expect(all.body.data.map((k: { userId: string }) => k.userId)).toEqual(
        expect.arrayContaining([ownerId, plain.userId]),
      );
      const ownersKey = all.body.data.find((k: { userId: string }) => k.userId === ownerId);
      const denied = await call("DELETE", `${KEYS}/${ownersKey.id}`, undefined, plain.key);
      expect([denied.status, denied.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
      expect((await call("DELETE", `${KEYS}/${mine.id}`)).status).toBe(200); // the owner revokes a member's key
      expect((await call("DELETE", `${KEYS}/no-such-key`)).body.code).toBe("API_KEY_NOT_FOUND");
    });
  });

  describe("roles stay enforced for everyone else", () => {
    it("a member without identity:read or userSearch is refused or sees no people", async () => {
      const entities = await get("/api/v2/system/entities", plain.key);
      expect([entities.status, entities.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
      expect(entities.body.data.requiredRoles).toEqual(["identityManager", "systemManager", "claimIssuer"]);
      expect((await get("/api/v2/participants/address-kinds", plain.key)).body.data).toEqual({});
      const members = await get(MEMBERS, plain.key);
      expect([members.status, members.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
      const promote = await call("PUT", `${MEMBERS}/${plain.userId}/roles`, { roles: ["owner"] }, plain.key);
      expect([promote.status, promote.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
    });
  });

  describe("members and roles", () => {
    it("lists the members with their roles and wallets", async () => {
      const { status, body } = await get(`${MEMBERS}?page[limit]=200`);
      expect(status).toBe(200);
      const owner = body.data.find((m: { userId: string }) => m.userId === ownerId);
      expect(owner.roles).toEqual([...ROLES]);
      expect(owner.wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(body.data.find((m: { userId: string }) => m.userId === plain.userId)).toMatchObject({
        displayName: "Mia Member",
        roles: ["member"],
        joinedAt: expect.any(String),
      });
      const search = await get(`${MEMBERS}?filter[q]=Mia&filter[roles]=member`);
      expect(search.body.data.map((m: { userId: string }) => m.userId)).toContain(plain.userId);
      expect((await get(`${MEMBERS}?filter[roles]=sultan`)).status).toBe(400);
    });

    it("replaces a member's roles, giving a member without one a custody wallet", async () => {
      const masterKey = loadMasterKey(loadConfig(stack.env));
      const email = `walletless-${Math.random().toString(36).slice(2)}@example.com`;
      const { userId } = await createUser(ops.db.platform, masterKey, { email, displayName: "Walt" });
      await grantRole(ops.db.platform, { organizationId: orgA, userId, role: "member" }); // no wallet yet
      const { status, body } = await call("PUT", `${MEMBERS}/${userId}/roles`, { roles: ["tokenManager", "auditor"] });
      expect(status).toBe(200);
      expect(body.data).toMatchObject({
        userId,
        roles: ["tokenManager", "auditor"],
        wallet: expect.stringMatching(/^0x/),
      });
      const filtered = await get(`${MEMBERS}?filter[roles]=tokenManager`);
      expect(filtered.body.data.map((m: { userId: string }) => m.userId)).toContain(userId);

      for (const roles of [[], ["sultan"]]) {
        expect((await call("PUT", `${MEMBERS}/${userId}/roles`, { roles })).status).toBe(400);
      }
      const stranger = await call("PUT", `${MEMBERS}/no-such-user/roles`, { roles: ["member"] });
      expect([stranger.status, stranger.body.code]).toEqual([404, "ORGANIZATION_MEMBER_NOT_FOUND"]);
    });

    it("only an owner grants or removes owner; admins manage the other roles", async () => {
      const admin = await ops.member(orgA, "admin", "Ada Admin");
      const grant = await call("PUT", `${MEMBERS}/${plain.userId}/roles`, { roles: ["owner"] }, admin.key);
      expect([grant.status, grant.body.code, grant.body.data.requiredRoles]).toEqual([
        403,
        "USER_NOT_AUTHORIZED",
        ["owner"],
      ]);
      const demote = await call("PUT", `${MEMBERS}/${ownerId}/roles`, { roles: ["admin"] }, admin.key);
      expect(demote.status).toBe(403);
      const other = await call("PUT", `${MEMBERS}/${plain.userId}/roles`, { roles: ["member", "auditor"] }, admin.key);
      expect([other.status, other.body.data.roles]).toEqual([200, ["auditor", "member"]]);
      // The change is honoured at the next request: an auditor still lacks identity:read.
      expect((await get("/api/v2/auth/session", plain.key)).body.data.roles.sort()).toEqual(["auditor", "member"]);
    });

    it("the last owner cannot drop its owner role (409 ORGANIZATION_LAST_OWNER)", async () => {
      const last = await call("PUT", `${MEMBERS}/${ownerB.userId}/roles`, { roles: ["admin"] }, ownerB.key);
      expect([last.status, last.body.code, last.body.data.id]).toEqual([409, "ORGANIZATION_LAST_OWNER", "SVC-12143"]);
      expect((await get("/api/v2/auth/session", ownerB.key)).body.data.roles).toEqual(["owner"]);
    });

    it("the CLI's role set runs the same rules", async () => {
      const cli = (...args: string[]) =>
        run(process.execPath, ["--import", "tsx", join(ROOT, "scripts/cli.ts"), "role", "set", ...args], {
          env: stack.env,
          cwd: ROOT,
        });
      const refused = await cli("--org", orgB, "--user", ownerB.userId, "--roles", "admin").catch((e) => e);
      expect(refused.stderr).toContain("last owner");
      const { stdout } = await cli("--org", orgA, "--user", plain.userId, "--roles", "member,supplyManager");
      expect(JSON.parse(stdout)).toMatchObject({ roles: ["member", "supplyManager"], wallet: plain.wallet });
      expect((await get("/api/v2/auth/session", plain.key)).body.data.roles.sort()).toEqual([
        "member",
        "supplyManager",
      ]);
    });
  });

  describe("organisations are apart", () => {
    it("B never sees A's keys or members, and cannot reach them by id", async () => {
      const aKeys = (await get(`${KEYS}?page[limit]=200`)).body.data;
      const bKeys = (await get(`${KEYS}?page[limit]=200`, ownerB.key)).body;
      expect(bKeys.data.every((k: { organizationId: string }) => k.organizationId === orgB)).toBe(true);
      expect(bKeys.data.map((k: { userId: string }) => k.userId)).toEqual([ownerB.userId]);
      const bMembers = (await get(`${MEMBERS}?page[limit]=200`, ownerB.key)).body.data;
      expect(bMembers.map((m: { userId: string }) => m.userId)).toEqual([ownerB.userId]);
      const aMembers = (await get(`${MEMBERS}?page[limit]=200`)).body.data;
      expect(aMembers.map((m: { userId: string }) => m.userId)).not.toContain(ownerB.userId);
      expect(aKeys.every((k: { organizationId: string }) => k.organizationId === orgA)).toBe(true);

      const revoke = await call("DELETE", `${KEYS}/${aKeys[0].id}`, undefined, ownerB.key);
      expect([revoke.status, revoke.body.code]).toEqual([404, "API_KEY_NOT_FOUND"]);
      const roles = await call("PUT", `${MEMBERS}/${plain.userId}/roles`, { roles: ["owner"] }, ownerB.key);
      expect([roles.status, roles.body.code]).toEqual([404, "ORGANIZATION_MEMBER_NOT_FOUND"]);
    });
  });

  describe("an existing data dir", () => {
    it("gives the local owner every role again at the next start", async () => {
      await ops.db.platform
        .deleteFrom("memberships")
        .where("organizationId", "=", orgA)
        .where("userId", "=", ownerId)
        .where("role", "<>", "owner")
        .execute();
      // The host's roles cache learns of the change through PostgreSQL notifications: a moment later, under load.
      await expect
        .poll(async () => (await get("/api/v2/auth/session")).body.data.roles, { timeout: 10_000 })
        .toEqual(["owner"]);
      await stack.restart();
      const { body } = await get("/api/v2/auth/session");
      expect([...body.data.roles].sort()).toEqual([...ROLES].sort());
    }, 120_000);
  });
});
