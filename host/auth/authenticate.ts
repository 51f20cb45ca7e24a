// Authenticates /api requests with X-Api-Key and enforces the key's scope.
import type { MiddlewareHandler } from "hono";
import type { PlatformDb } from "../db/database.ts";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "../http/env.ts";
import { hashApiKey, looksLikeApiKey } from "./api-keys.ts";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function authenticate(db: PlatformDb): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header("x-api-key");
    if (!key || !looksLikeApiKey(key)) throw new ApiError("UNAUTHORIZED");
    let row:
      | { id: string; organizationId: string; userId: string; scope: "read" | "read-write"; expiresAt: Date | null }
      | undefined;
    try {
      row = await db
        .selectFrom("apiKeys")
        .select(["id", "organizationId", "userId", "scope", "expiresAt"])
        .where("keyHash", "=", hashApiKey(key))
        .where("revokedAt", "is", null)
        .executeTakeFirst();
    } catch {
      throw new ApiError("AUTH_STORE_UNAVAILABLE");
    }
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) throw new ApiError("UNAUTHORIZED");
    if (row.scope === "read" && !READ_METHODS.has(c.req.method)) throw new ApiError("API_KEY_READ_ONLY");
    c.set("principal", { organizationId: row.organizationId, userId: row.userId, apiKeyId: row.id, scope: row.scope });
    await next();
  };
}
