// The role matrix: every mutation of the API document (every non-GET operation declaring its x-permission), sent by
// people holding exactly one role each (API keys), the local owner (every role, and the platform operator), a
// read-scope key and a session (REST and /api/rpc). A caller
// lacking the route's permission gets 403 before anything reads the body; a read key gets API_KEY_READ_ONLY; a caller
// holding it gets past the check to the body's validation, and never a success: every request carries invalid input
// (a JSON array body, path parameters no route accepts), so nothing is written.
import { beforeAll, describe, expect, it } from "vitest";
import { isGranted, ROLES as ROLE_NAMES } from "../../host/auth/permissions.ts";
import { createApiKey } from "../../plugins/access/api-key-store.ts";
import "../../scripts/platform-context.ts"; // registers the plugins' permissions, as the platform does
import { json } from "../support/stack.ts";
import type { AttackContextGetter } from "./context.ts";

const ROLES = ["member", "auditor", "tokenManager", "gasManager", "admin", "owner"] as const;
/** The session's person holds this one role. */
const SESSION_ROLE = "member";
const METHODS = ["post", "put", "patch", "delete"] as const;
/** No route takes a parameter of this shape: an address, a number or an unknown id alike fail or find nothing. */
const INVALID_PARAM = "not-a-valid-id";
const CONCURRENCY = 16;

interface Mutation {
  method: string;
  path: string;
  permission: string;
  /** Its /api/rpc procedure; none for a file upload (no place in a JSON transport: host/rpc/procedures.ts). */
  procedure?: string;
}

interface Caller {
  name: string;
  /** The request's credential headers. */
  headers: Record<string, string>;
  roles: readonly string[];
  platformRoles?: readonly string[];
  readOnly?: boolean;
  session?: boolean;
}

/** The REST error envelope, or the RPC one (oRPC's error JSON under `json`). */
interface ErrorBody {
  code?: string;
  json?: { code?: string };
}

/** The permission check's answers (the workflow-engine family has the spec's own code). */
const PERMISSION_REFUSALS = new Set(["USER_NOT_AUTHORIZED", "OFFCHAIN_USER_PERMISSION_REQUIRED"]);

interface Outcome {
  caller: string;
  route: string;
  status: number;
  code: string | undefined;
}

async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return results;
}

/** The expected answer's check: undefined when the outcome is right, else what was wrong. */
/**
 * JSON-RPC routes answer an invalid call in the body with HTTP 200, and a call without an id (what the matrix's
 * bodies are) is a notification, answered with nothing: for them "not refused" is all a permitted caller can show.
 */
const JSON_RPC_ROUTES = new Set(["/api/v2/bundler"]);

function judge(caller: Caller, mutation: Mutation, status: number, code: string | undefined): string | undefined {
  if (caller.readOnly) return status === 403 && code === "API_KEY_READ_ONLY" ? undefined : "not API_KEY_READ_ONLY";
  if (!isGranted(caller.roles, caller.platformRoles ?? [], mutation.permission))
    return status === 403 && PERMISSION_REFUSALS.has(code ?? "") ? undefined : "not refused for the permission";
  if (status === 403) return "refused";
  if (status < 400 && !JSON_RPC_ROUTES.has(mutation.path)) return "succeeded on invalid input";
  return undefined;
}

export function roleMatrix(ctx: AttackContextGetter) {
  describe("the role matrix: every mutation answers each caller by its declared permission", () => {
    let mutations: Mutation[];
    const callers: Caller[] = [];
    let organizationId: string;

    beforeAll(async () => {
      const { stack, op: ops } = ctx();
      organizationId = stack.platform.credentials.organizationId;
      const document = await json(await stack.api("/api/v2/spec.json"));
      mutations = Object.entries(document.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
        ([path, item]) =>
          METHODS.flatMap((method) => {
            const operation = item[method];
            const permission = operation?.["x-permission"];
            if (typeof permission !== "string") return []; // public or self-service: scripts/route-permissions.test.ts
            const body = operation?.requestBody as { content?: Record<string, unknown> } | undefined;
            const upload = body?.content !== undefined && "multipart/form-data" in body.content;
            const procedure = upload ? undefined : String(operation?.operationId).split(".").join("/");
            return [{ method: method.toUpperCase(), path, permission, procedure }];
          }),
      );
      const members = await Promise.all(ROLES.map((role) => ops.member(organizationId, role)));
      ROLES.forEach((role, i) => {
        callers.push({ name: role, headers: { "x-api-key": members[i]!.key }, roles: [role] });
      });
      const owner = members[ROLES.indexOf("owner")]!;
      const { key: readKey } = await createApiKey(ops.db.platform, {
        organizationId,
        userId: owner.userId,
        name: "read",
        scope: "read",
      });
      callers.push({ name: "owner's read key", headers: { "x-api-key": readKey }, roles: ["owner"], readOnly: true });
      // The first start's owner: every organisation role and the platform operator's.
      callers.push({
        name: "local owner (platform operator)",
        headers: { "x-api-key": stack.platform.credentials.apiKey },
        roles: ROLE_NAMES,
        platformRoles: ["platformOperator"],
      });
      const password = "matrix-password-1";
      const person = await ops.person(organizationId, SESSION_ROLE, { password });
      const signIn = await stack.api("/api/v2/auth/sign-in", {
        method: "POST",
        key: null,
        body: JSON.stringify({ email: person.email, password }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers
        .getSetCookie()
        .find((c) => c.startsWith("svc_session="))
        ?.split(";")[0];
      expect(cookie).toBeDefined();
      // A browser's same-origin request: the cookie, its Origin and a JSON body.
      const session = { cookie: cookie!, origin: stack.platform.baseUrl, "x-organization-id": organizationId };
      callers.push({ name: `${SESSION_ROLE}'s session`, headers: session, roles: [SESSION_ROLE], session: true });
    });

    it("covers every mutation of the document", () => {
      expect(mutations.length).toBeGreaterThan(60);
      const operator = mutations.filter((m) => m.path.startsWith("/api/v2/admin/operator/"));
      expect(operator.length).toBeGreaterThan(0);
      // Shared infrastructure: no organisation role grants these.
      expect(operator.filter((m) => m.permission !== "platform:operate")).toEqual([]);
    });

    it("refuses each caller lacking the permission with 403, before validation, and lets the others reach it", async () => {
      const { stack } = ctx();
      const rest = callers.flatMap((caller) => mutations.map((mutation) => ({ caller, mutation, rpc: false })));
      const rpc = callers
        .filter((caller) => caller.session)
        .flatMap((caller) =>
          mutations.filter((mutation) => mutation.procedure).map((mutation) => ({ caller, mutation, rpc: true })),
        );
      const started = Date.now();
      const outcomes = await inParallel([...rest, ...rpc], CONCURRENCY, async ({ caller, mutation, rpc }) => {
        const params = Object.fromEntries(
          [...mutation.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1] as string, INVALID_PARAM]),
        );
        const res = rpc
          ? await stack.api(`/api/rpc/${mutation.procedure}`, {
              method: "POST",
              key: null,
              headers: caller.headers,
              // oRPC's envelope; the input's non-parameter fields are the body, this one no schema declares.
              body: JSON.stringify({ json: { ...params, notAField: [] } }),
            })
          : await stack.api(
              mutation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? "")),
              { method: mutation.method, key: null, headers: caller.headers, body: "[]" },
            );
        const body = (await res.json().catch(() => null)) as ErrorBody | null;
        const code = rpc ? body?.json?.code : body?.code;
        const route = `${rpc ? "RPC " : ""}${mutation.method} ${mutation.path} (${mutation.permission})`;
        const wrong = judge(caller, mutation, res.status, code);
        return wrong ? { caller: caller.name, route, status: res.status, code, wrong } : undefined;
      });
      const wrong = outcomes.filter((o): o is Outcome & { wrong: string } => o !== undefined);
      expect(wrong).toEqual([]);
      expect(Date.now() - started).toBeLessThan(60_000);
    });
  });
}
