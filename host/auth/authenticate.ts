// Authenticates /api requests: an X-Api-Key, else a session cookie; then the organisation pin and key scope.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { sql } from "kysely";
import type { ShortCache } from "../cache/short-cache.ts";
import type { PlatformDb } from "../db/database.ts";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv, Principal } from "../http/env.ts";
import { isRpcPath } from "../rpc/path.ts";
import { hashApiKey, looksLikeApiKey } from "./api-keys.ts";
import type { CredentialFailures } from "./credential-failures.ts";
import type { LastUsedRecorder } from "./last-used.ts";
import { platformRolesOf, rolesOf } from "./memberships.ts";
import type { RateWindow } from "./rate-limit.ts";
import { resolveSession, SESSION_COOKIE, TWO_FACTOR_COOKIE } from "./sessions.ts";
import { throttled } from "./throttled.ts";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface AuthDeps {
  db: PlatformDb;
  rateWindow: RateWindow;
  /** API key rows by key hash, for a few seconds and until a key or membership changes (host/cache/short-cache.ts). */
  keys?: ShortCache<KeyRow>;
  /** Keeps api_keys.last_used_at, off the request's path; absent: not kept. */
  lastUsed?: LastUsedRecorder;
  /** Failed keys and session cookies per source address; absent: not limited (tests of parts). */
  failures?: CredentialFailures;
  /** The request's source address (host/http/client-address.ts). */
  addressOf?: (c: Context<AppEnv>) => string;
}

/** The failures of a presented credential that count against its source address. */
const COUNTED_FAILURES = new Set(["UNAUTHORIZED", "SESSION_EVIDENCE_INVALID"]);

export interface KeyRow {
  id: string;
  organizationId: string;
  userId: string;
  scope: "read" | "read-write";
  expiresAt: Date | null;
  roles: string[];
  platformRoles: string[];
}

async function fromApiKey(c: Context<AppEnv>, key: string, deps: AuthDeps): Promise<Principal> {
  if (isRpcPath(c.req.path)) throw new ApiError("API_KEY_NOT_SUPPORTED_ON_RPC");
  if (!looksLikeApiKey(key)) throw new ApiError("UNAUTHORIZED");
  let row: KeyRow | undefined;
  const hash = hashApiKey(key);
  // One round trip: the key and its user's roles in the key's organisation.
  const load = () =>
    deps.db
      .selectFrom("apiKeys as k")
      .innerJoin("users as u", "u.id", "k.userId")
      .leftJoin("memberships as m", (join) =>
        join.onRef("m.userId", "=", "k.userId").onRef("m.organizationId", "=", "k.organizationId"),
      )
      .select(["k.id", "k.organizationId", "k.userId", "k.scope", "k.expiresAt", "u.platformRoles"])
      .select(sql<string[]>`coalesce(array_agg(m.role) filter (where m.role is not null), '{}')`.as("roles"))
      .where("k.keyHash", "=", hash)
      .where("k.revokedAt", "is", null)
      .groupBy(["k.id", "u.id"])
      .executeTakeFirst();
  try {
    row = deps.keys ? await deps.keys.get(hash, load) : await load();
  } catch {
    throw new ApiError("AUTH_STORE_UNAVAILABLE");
  }
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) throw new ApiError("UNAUTHORIZED");
  let window: Awaited<ReturnType<RateWindow["take"]>>;
  try {
    window = await deps.rateWindow.take(row.id);
  } catch {
    throw new ApiError("AUTH_STORE_UNAVAILABLE");
  }
  if (!window.allowed) throw throttled("auth.apikey.THROTTLED", window.retryAfterSeconds);
  const pinned = c.req.header("x-organization-id");
  if (pinned !== undefined && pinned !== row.organizationId) {
    throw new ApiError("ACTIVE_ORGANIZATION_REQUIRED", { message: "This API key is locked to another organisation" });
  }
  if (row.scope === "read" && !READ_METHODS.has(c.req.method)) throw new ApiError("API_KEY_READ_ONLY");
  deps.lastUsed?.touch(row.id);
  return {
    kind: "api-key",
    organizationId: row.organizationId,
    userId: row.userId,
    roles: row.roles,
    platformRoles: row.platformRoles,
    scope: row.scope,
    apiKeyId: row.id,
    apiKeyExpiresAt: row.expiresAt,
  };
}

async function fromSession(c: Context<AppEnv>, token: string, deps: AuthDeps): Promise<Principal> {
  let session: Awaited<ReturnType<typeof resolveSession>>;
  try {
    session = await resolveSession(deps.db, token);
  } catch {
    throw new ApiError("SESSION_RESOLUTION_FAILED");
  }
  if (!session) throw new ApiError("SESSION_EVIDENCE_INVALID");
  if (session.stage !== "active") throw new ApiError("LOGIN_2FA_REQUIRED");
  const organizationId = c.req.header("x-organization-id") ?? session.organizationId;
  if (!organizationId) throw new ApiError("ACTIVE_ORGANIZATION_REQUIRED");
  let roles: string[];
  let platformRoles: string[];
  try {
    [roles, platformRoles] = await Promise.all([
      rolesOf(deps.db, session.userId, organizationId),
      platformRolesOf(deps.db, session.userId),
    ]);
  } catch {
    throw new ApiError("SESSION_RESOLUTION_FAILED");
  }
  if (roles.length === 0)
    throw new ApiError("ACTIVE_ORGANIZATION_REQUIRED", { message: "You are not a member of that organisation" });
  return {
    kind: "session",
    organizationId,
    userId: session.userId,
    roles,
    platformRoles,
    scope: "read-write",
    sessionId: session.id,
  };
}

export function authenticate(deps: AuthDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header("x-api-key");
    const sessionToken = getCookie(c, SESSION_COOKIE);
    const presented =
      key !== undefined
        ? () => fromApiKey(c, key, deps)
        : sessionToken
          ? () => fromSession(c, sessionToken, deps)
          : undefined;
    let principal: Principal;
    if (presented) {
      try {
        principal = await presented();
      } catch (error) {
        if (deps.failures && error instanceof ApiError && COUNTED_FAILURES.has(error.code)) {
          // Only failures are refused while an address is locked out: a valid credential always passes, so clients
          // sharing an address (a NAT, a proxy without TRUST_PROXY) are not locked out by one that sends a stale key.
          throw await deps.failures.failed(deps.addressOf?.(c) ?? "unknown", error);
        }
        throw error;
      }
    } else if (getCookie(c, TWO_FACTOR_COOKIE)) throw new ApiError("LOGIN_2FA_REQUIRED");
    else throw new ApiError("UNAUTHORIZED");
    c.set("principal", principal);
    await next();
  };
}
