// Authentication and scope over HTTP against the real stack: every failure of the spec's Authentication
// section produced by the request that causes it, people's sessions (password, TOTP, PIN), and the CLI.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { currentTotp } from "../host/auth/totp.ts";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { type Databases, openDatabases } from "../host/db/database.ts";
import { createApiKey } from "../plugins/access/api-key-store.ts";
import { grantRole } from "../plugins/access/members.ts";
import { createUser } from "../plugins/access/users.ts";
import { ROOT } from "../scripts/platform.ts";
import { bootStack, json, type TestStack } from "./support/stack.ts";

const run = promisify(execFile);
const RATE_LIMIT = 40;

describe("authentication and scope", () => {
  let stack: TestStack;
  let orgId: string;
  let db: pg.Client;
  let operatorDb: Databases;

  // biome-ignore lint/suspicious/noExplicitAny: the CLI prints JSON
  async function cli(...args: string[]): Promise<any> {
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(ROOT, "scripts/cli.ts"), ...args], {
      env: stack.env,
      cwd: ROOT,
    });
    return JSON.parse(stdout);
  }

  // The same operator actions the CLI runs, in-process (the CLI itself is exercised in its own test).
  async function person(role: string, options: { totp?: boolean; org?: string } = {}) {
    const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
    const user = await createUser(operatorDb.platform, loadMasterKey(loadConfig(stack.env)), {
      email,
      displayName: role,
      password: "pw-for-tests",
      pincode: "246810",
      totp: options.totp,
    });
    await grantRole(operatorDb.platform, { organizationId: options.org ?? orgId, userId: user.userId, role });
    return { ...user, email };
  }

  async function keyFor(userId: string, scope: "read" | "read-write" = "read-write") {
    return (await createApiKey(operatorDb.platform, { organizationId: orgId, userId, name: "test", scope })).key;
  }

  async function signIn(email: string): Promise<string> {
    const res = await stack.api("/api/v2/auth/sign-in", {
      key: null,
      method: "POST",
      body: JSON.stringify({ email, password: "pw-for-tests" }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("svc_session="));
    expect(cookie).toMatch(/HttpOnly/);
    return cookie!.split(";")[0];
  }

  const asSession = (cookie: string, init: RequestInit = {}) => ({
    ...init,
    key: null,
    headers: { ...(init.headers ?? {}), cookie },
  });

  async function newKey(scope: "read" | "read-write" = "read-write") {
    return keyFor((await person("owner")).userId, scope);
  }

  beforeAll(async () => {
    stack = await bootStack({ API_KEY_RATE_LIMIT: String(RATE_LIMIT), ACCOUNT_ABSTRACTION_ENABLED: "true" });
    orgId = stack.platform.credentials.organizationId;
    db = new pg.Client({
      connectionString: `postgres://platform:platform@127.0.0.1:${stack.env.EMBEDDED_POSTGRES_PORT}/platform`,
    });
    db.on("error", () => {});
    await db.connect();
    operatorDb = openDatabases(
      `postgres://platform:platform@127.0.0.1:${stack.env.EMBEDDED_POSTGRES_PORT}/platform`,
      "ledger",
      2,
    );
  });
  afterAll(async () => {
    await db?.end().catch(() => {});
    await operatorDb?.close().catch(() => {});
    await stack?.stop();
  });

  describe("API keys", () => {
    it("are provisioned by the CLI, shown once, listed without the secret, and revocable", async () => {
      const owner = await cli(
        "user",
        "create",
        "--email",
        "cli-owner@example.com",
        "--name",
        "CLI owner",
        "--password",
        "pw-for-tests",
      );
      // Granting a role gives the member a custody wallet of their own (once).
      expect(await cli("role", "grant", "--org", orgId, "--user", owner.userId, "--role", "owner")).toEqual({
        granted: "owner",
        wallet: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      });
      const created = await cli(
        "key",
        "create",
        "--org",
        orgId,
        "--user",
        owner.userId,
        "--scope",
        "read",
        "--name",
        "ci",
      );
      expect(created.key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
      const listed = await cli("key", "list", "--org", orgId);
      const row = listed.find((k: { id: string }) => k.id === created.id);
      expect(row).toMatchObject({ scope: "read", name: "ci", keyPrefix: created.key.slice(0, 10) });
      expect(JSON.stringify(listed)).not.toContain(created.key);
      expect((await stack.api("/api/v2/auth/session", { key: created.key })).status).toBe(200);
      expect(await cli("key", "revoke", "--id", created.id)).toEqual({ revoked: true });
      const after = await stack.api("/api/v2/auth/session", { key: created.key });
      expect(after.status).toBe(401);
      expect((await json(after)).code).toBe("UNAUTHORIZED");
    });

    it("expire", async () => {
      const owner = await person("owner");
      const { key } = await cli(
        "key",
        "create",
        "--org",
        orgId,
        "--user",
        owner.userId,
        "--expires",
        "2020-01-01T00:00:00Z",
      );
      expect((await json(await stack.api("/api/v2/auth/session", { key }))).code).toBe("UNAUTHORIZED");
    });

    it("inherit their user's roles: 403 USER_NOT_AUTHORIZED naming the roles that would do", async () => {
      const member = await person("member");
      const key = await keyFor(member.userId);
      expect((await stack.api("/api/v2/token-templates", { key })).status).toBe(200);
      const res = await stack.api("/api/v2/tokens", {
        key,
        method: "POST",
        body: JSON.stringify({ templateId: "deposit", name: "X", symbol: "X" }),
      });
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({
        code: "USER_NOT_AUTHORIZED",
        data: { id: "SVC-0006", category: "permission", requiredRoles: ["owner", "admin", "tokenManager"] },
      });
    });

    it("read scope: 403 API_KEY_READ_ONLY on writes", async () => {
      const key = await newKey("read");
      const res = await stack.api("/api/v2/auth/sign-out", { key, method: "POST" });
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe("API_KEY_READ_ONLY");
    });

    it("are not accepted on the RPC route: 403 API_KEY_NOT_SUPPORTED_ON_RPC", async () => {
      const res = await stack.api("/api/rpc/auth/session/get", { method: "POST", body: "{}" });
      expect(res.status).toBe(403);
      // The RPC transport's error: the public object at data.dapiError (test/rpc.test.ts calls it with oRPC's client)
      expect((await json(res)).json.data.dapiError).toMatchObject({
        status: 403,
        category: "auth",
        details: { code: "API_KEY_NOT_SUPPORTED_ON_RPC" },
      });
    });

    it("are locked to their organisation: x-organization-id pinning another one is 403 ACTIVE_ORGANIZATION_REQUIRED", async () => {
      const res = await stack.api("/api/v2/auth/session", { headers: { "x-organization-id": "another-org" } });
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ code: "ACTIVE_ORGANIZATION_REQUIRED", data: { id: "SVC-0034" } });
      expect((await stack.api("/api/v2/auth/session", { headers: { "x-organization-id": orgId } })).status).toBe(200);
    });

    it("have a request window: 429 auth.apikey.THROTTLED with Retry-After", async () => {
      const key = await newKey();
      for (let i = 0; i < RATE_LIMIT; i++) expect((await stack.api("/api/v2/auth/session", { key })).status).toBe(200);
      const res = await stack.api("/api/v2/auth/session", { key });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await json(res)).toMatchObject({
        code: "auth.apikey.THROTTLED",
        data: { id: "SVC-12136", retryable: true },
      });
    });
  });

  describe("sessions for people", () => {
    it("sign in with a password; wrong credentials are 401 INVALID_CREDENTIALS; no credential is 401 UNAUTHORIZED", async () => {
      const owner = await person("owner");
      const cookie = await signIn(owner.email);
      const me = await json(await stack.api("/api/v2/auth/session", asSession(cookie)));
      expect(me.data).toMatchObject({
        kind: "session",
        userId: owner.userId,
        organizationId: orgId,
        roles: ["owner"],
        scope: "read-write",
      });
      const wrong = await stack.api("/api/v2/auth/sign-in", {
        key: null,
        method: "POST",
        body: JSON.stringify({ email: owner.email, password: "nope" }),
      });
      expect(wrong.status).toBe(401);
      expect((await json(wrong)).code).toBe("INVALID_CREDENTIALS");
      const unknown = await stack.api("/api/v2/auth/sign-in", {
        key: null,
        method: "POST",
        body: JSON.stringify({ email: "nobody@example.com", password: "nope" }),
      });
      expect((await json(unknown)).code).toBe("INVALID_CREDENTIALS");
      expect((await json(await stack.api("/api/v2/auth/session", { key: null }))).code).toBe("UNAUTHORIZED");
    });

    it("an unknown or ended session cookie is 401 SESSION_EVIDENCE_INVALID", async () => {
      const res = await stack.api("/api/v2/auth/session", asSession("svc_session=forged"));
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({ code: "SESSION_EVIDENCE_INVALID", data: { id: "SVC-9188" } });
      const owner = await person("owner");
      const cookie = await signIn(owner.email);
      expect((await stack.api("/api/v2/auth/sign-out", asSession(cookie, { method: "POST" }))).status).toBe(200);
      expect((await json(await stack.api("/api/v2/auth/session", asSession(cookie)))).code).toBe(
        "SESSION_EVIDENCE_INVALID",
      );
    });

    it("with TOTP: the pending cookie is 403 LOGIN_2FA_REQUIRED until a valid code", async () => {
      const user = await person("admin", { totp: true });
      const res = await stack.api("/api/v2/auth/sign-in", {
        key: null,
        method: "POST",
        body: JSON.stringify({ email: user.email, password: "pw-for-tests" }),
      });
      expect((await json(res)).data.status).toBe("TWO_FACTOR_REQUIRED");
      const pending = res.headers
        .getSetCookie()
        .find((c) => c.startsWith("svc_2fa="))!
        .split(";")[0];
      const blocked = await stack.api("/api/v2/auth/session", asSession(pending));
      expect(blocked.status).toBe(403);
      expect((await json(blocked)).code).toBe("LOGIN_2FA_REQUIRED");
      const wrong = await stack.api(
        "/api/v2/auth/two-factor",
        asSession(pending, { method: "POST", body: JSON.stringify({ code: "000000" }) }),
      );
      expect((await json(wrong)).code).toBe("TWO_FACTOR_CODE_INVALID");
      const code = currentTotp(user.totpSecret ?? "");
      const ok = await stack.api(
        "/api/v2/auth/two-factor",
        asSession(pending, { method: "POST", body: JSON.stringify({ code }) }),
      );
      expect(ok.status).toBe(200);
      const session = ok.headers
        .getSetCookie()
        .find((c) => c.startsWith("svc_session="))!
        .split(";")[0];
      expect((await json(await stack.api("/api/v2/auth/session", asSession(session)))).data.roles).toEqual(["admin"]);
      const replay = await stack.api(
        "/api/v2/auth/two-factor",
        asSession(pending, { method: "POST", body: JSON.stringify({ code }) }),
      );
      expect((await json(replay)).code).toBe("SESSION_EVIDENCE_INVALID");
    });

    it("chain writes need walletVerification with the PIN code; API keys skip it", async () => {
      const owner = await person("owner");
      const cookie = await signIn(owner.email);
      const body = { templateId: "deposit", name: "Session Token", symbol: "SESS" };
      const post = (extra: object) =>
        stack.api("/api/v2/tokens", asSession(cookie, { method: "POST", body: JSON.stringify({ ...body, ...extra }) }));
      const missing = await post({});
      expect(missing.status).toBe(400);
      expect((await json(missing)).code).toBe("WALLET_VERIFICATION_REQUIRED");
      const wrong = await post({
        walletVerification: { verificationType: "PINCODE", secretVerificationCode: "111111" },
      });
      expect(wrong.status).toBe(403);
      expect((await json(wrong)).code).toBe("WALLET_VERIFICATION_FAILED");
      const ok = await post({ walletVerification: { verificationType: "PINCODE", secretVerificationCode: "246810" } });
      expect(ok.status).toBe(202);
      const viaKey = await stack.api("/api/v2/tokens", { method: "POST", body: JSON.stringify(body) });
      expect(viaKey.status).toBe(202);
    });

    it("a session pinned to an organisation the person is not in is 403 ACTIVE_ORGANIZATION_REQUIRED", async () => {
      const owner = await person("owner");
      const cookie = await signIn(owner.email);
      const res = await stack.api(
        "/api/v2/auth/session",
        asSession(cookie, { headers: { "x-organization-id": "not-mine" } }),
      );
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe("ACTIVE_ORGANIZATION_REQUIRED");
    });
  });

  describe("GET and DELETE /api/v2/sessions", () => {
    const sessionIdOf = async (cookie: string) =>
      (await json(await stack.api("/api/v2/auth/session", asSession(cookie)))).data.sessionId;
    const revoke = (id: string, init: RequestInit & { key?: string | null } = {}) =>
      stack.api(`/api/v2/sessions/${id}`, { method: "DELETE", ...init });

    it("ends your own session, and answers the same when repeated", async () => {
      const member = await person("member");
      const cookie = await signIn(member.email);
      const id = await sessionIdOf(cookie);
      const first = await revoke(id, asSession(cookie, { headers: { "idempotency-key": "end-1" } }));
      expect(first.status).toBe(200);
      expect(await json(first)).toEqual({ data: { success: true }, links: { self: `/v2/sessions/${id}` } });
      const other = await signIn(member.email);
      expect(await json(await revoke(id, asSession(other)))).toMatchObject({ data: { success: true } });
      expect((await json(await stack.api("/api/v2/auth/session", asSession(cookie)))).code).toBe(
        "SESSION_EVIDENCE_INVALID",
      );
    });

    it("GET /api/v2/sessions lists your live sessions (current marked); an admin sees every member's, not another organisation's", async () => {
      const listed = async (cookie: string, query = "") => {
        const res = await stack.api(`/api/v2/sessions${query}`, asSession(cookie));
        expect(res.status).toBe(200);
        return (await json(res)).data as { id: string; email: string; current: boolean }[];
      };
      const member = await person("member");
      const phone = await signIn(member.email);
      const laptop = await signIn(member.email);
      const mine = await listed(laptop);
      expect(mine.map((s) => s.email)).toEqual([member.email, member.email]);
      expect(mine.find((s) => s.current)?.id).toBe(await sessionIdOf(laptop));
      // An ended session is no longer listed.
      await revoke(await sessionIdOf(phone), asSession(laptop));
      expect((await listed(laptop)).map((s) => s.id)).toEqual([await sessionIdOf(laptop)]);
      const other = await cli("org", "create", "--name", "Listed elsewhere");
      const stranger = await person("owner", { org: other.organizationId });
      await signIn(stranger.email);
      const admin = await signIn((await person("admin")).email);
      const everyone = await listed(admin, `?filter[q]=${encodeURIComponent(member.email)}`);
      expect(everyone.map((s) => s.id)).toEqual([await sessionIdOf(laptop)]);
      expect((await listed(admin)).some((s) => s.email === stranger.email)).toBe(false);
    });

    it("another member's session: 403 SESSION_REVOCATION_NOT_AUTHORIZED for a member, allowed for an admin", async () => {
      const target = await signIn((await person("member")).email);
      const targetId = await sessionIdOf(target);
      const member = await signIn((await person("member")).email);
      const denied = await revoke(targetId, asSession(member));
      expect(denied.status).toBe(403);
      expect((await json(denied)).code).toBe("SESSION_REVOCATION_NOT_AUTHORIZED");
      const admin = await signIn((await person("admin")).email);
      expect((await revoke(targetId, asSession(admin))).status).toBe(200);
    });

    it("a session id you cannot see is 404 USER_SECURITY_TARGET_NOT_FOUND (unknown, or another organisation's)", async () => {
      const admin = await signIn((await person("admin")).email);
      const unknown = await revoke("01900000-0000-7000-8000-000000000000", asSession(admin));
      expect(unknown.status).toBe(404);
      expect((await json(unknown)).code).toBe("USER_SECURITY_TARGET_NOT_FOUND");
      const other = await cli("org", "create", "--name", "Other organisation");
      const stranger = await person("owner", { org: other.organizationId });
      const strangerSession = await sessionIdOf(await signIn(stranger.email));
      expect((await json(await revoke(strangerSession, asSession(admin)))).code).toBe("USER_SECURITY_TARGET_NOT_FOUND");
    });

    it("API keys may not end sessions: 403 SESSION_POLICY_DENIED; a malformed id is 400; bad context headers are refused", async () => {
      const owner = await signIn((await person("owner")).email);
      const id = await sessionIdOf(owner);
      const res = await revoke(id);
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe("SESSION_POLICY_DENIED");
      expect((await json(await revoke("x".repeat(65), asSession(owner)))).code).toBe("BAD_REQUEST");
      const badChain = await revoke(id, asSession(owner, { headers: { "x-chain-id": "0x1" } }));
      expect((await json(badChain)).code).toBe("CHAIN_ID_HEADER_INVALID");
      const otherChain = await revoke(id, asSession(owner, { headers: { "x-chain-id": "1" } }));
      expect((await json(otherChain)).code).toBe("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION");
      const badExecutor = await revoke(id, asSession(owner, { headers: { "x-executor": "hsm" } }));
      expect((await json(badExecutor)).code).toBe("INVALID_REQUEST_EXECUTOR");
    });
  });

  describe("context headers", () => {
    it("X-Executor smart-wallet: 403 X_EXECUTOR_AA_DISABLED_FOR_ORG, then accepted once the organisation allows it", async () => {
      const headers = { "x-executor": "smart-wallet" };
      const off = await stack.api("/api/v2/token-templates", { headers });
      expect(off.status).toBe(403);
      expect((await json(off)).code).toBe("X_EXECUTOR_AA_DISABLED_FOR_ORG");
      await db.query("update platform.organizations set account_abstraction_enabled = true where id = $1", [orgId]);
      // Written outside the host: it reaches the host's cached organisation row by NOTIFY, a moment later.
      await expect
        .poll(async () => (await stack.api("/api/v2/token-templates", { headers })).status, {
          timeout: 5_000,
          interval: 50,
        })
        .toBe(200);
      await db.query("update platform.organizations set account_abstraction_enabled = false where id = $1", [orgId]);
      expect((await stack.api("/api/v2/token-templates", { headers: { "x-executor": "eoa" } })).status).toBe(200);
    });

    it("X-Participant: yourself, or a member when you administer; otherwise 403 REQUEST_PARTICIPANT_FORBIDDEN", async () => {
      const member = await person("member");
      const memberKey = await keyFor(member.userId);
      const owner = await person("owner");
      const ownerKey = await keyFor(owner.userId);
      expect(
        (await stack.api("/api/v2/auth/session", { key: memberKey, headers: { "x-participant": member.userId } }))
          .status,
      ).toBe(200);
      const forbidden = await stack.api("/api/v2/auth/session", {
        key: memberKey,
        headers: { "x-participant": owner.userId },
      });
      expect(forbidden.status).toBe(403);
      expect((await json(forbidden)).code).toBe("REQUEST_PARTICIPANT_FORBIDDEN");
      expect(
        (await stack.api("/api/v2/auth/session", { key: ownerKey, headers: { "x-participant": member.userId } }))
          .status,
      ).toBe(200);
      expect(
        (await json(await stack.api("/api/v2/auth/session", { key: ownerKey, headers: { "x-participant": "nobody" } })))
          .code,
      ).toBe("REQUEST_PARTICIPANT_FORBIDDEN");
    });

    it("an organisation whose system was never requested: 403 SYSTEM_NOT_CREATED; while it deploys: 409 CHAIN_NOT_READY", async () => {
      const newOrg = "org-without-system";
      await db.query(
        "insert into platform.organizations (id, name, default_chain_id) values ($1, 'No system yet', 31337)",
        [newOrg],
      );
      const owner = await person("owner", { org: newOrg });
      const key = (
        await createApiKey(operatorDb.platform, {
          organizationId: newOrg,
          userId: owner.userId,
          name: "t",
          scope: "read-write",
        })
      ).key;
      const path = `/api/v2/token/0x${"1".repeat(40)}`;
      const missing = await stack.api(path, { key });
      expect(missing.status).toBe(403);
      expect(await json(missing)).toMatchObject({ code: "SYSTEM_NOT_CREATED", data: { id: "SVC-0011" } });
      await db.query(
        "insert into platform.organization_chains (organization_id, chain_id, status) values ($1, 31337, 'pending')",
        [newOrg],
      );
      // The host's cached chain row is refreshed by the change notification that insert sends: on a busy machine it
      // can arrive after the next request, so the 409 is waited for (the cache's TTL bounds it: 5 s).
      const pending = await vi.waitFor(
        async () => {
          const answer = await stack.api(path, { key });
          expect(answer.status).toBe(409);
          return answer;
        },
        { timeout: 6_000, interval: 100 },
      );
      expect(await json(pending)).toMatchObject({
        code: "CHAIN_NOT_READY",
        data: { id: "SVC-9086", chainId: 31337, chainStatus: "pending", retryable: true },
      });
    });

    it("an invalid selection is refused before anything is queued", async () => {
      const count = async () =>
        (await db.query("select count(*)::int as n from platform.transaction_requests")).rows[0].n;
      const before = await count();
      const token = await json(
        await stack.api("/api/v2/tokens", {
          method: "POST",
          headers: { "x-executor": "nope" },
          body: JSON.stringify({ templateId: "deposit", name: "N", symbol: "N" }),
        }),
      );
      expect(token.code).toBe("INVALID_REQUEST_EXECUTOR");
      expect(await count()).toBe(before);
    });
  });

  it("when the credential store is down: 503 AUTH_STORE_UNAVAILABLE for keys, 503 SESSION_RESOLUTION_FAILED for sessions", async () => {
    const owner = await person("owner");
    const cookie = await signIn(owner.email);
    // Take PostgreSQL away under the running host (the last test of this file).
    const pid = Number(readFileSync(join(stack.dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 300));
    const viaKey = await stack.api("/api/v2/auth/session");
    expect(viaKey.status).toBe(503);
    expect(await json(viaKey)).toMatchObject({
      code: "AUTH_STORE_UNAVAILABLE",
      data: { id: "SVC-12258", retryable: true },
    });
    const viaSession = await stack.api("/api/v2/auth/session", asSession(cookie));
    expect(viaSession.status).toBe(503);
    expect((await json(viaSession)).code).toBe("SESSION_RESOLUTION_FAILED");
  });
});
