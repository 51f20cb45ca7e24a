// The operations audit log: one row per operator call (the body as sent, URLs redacted, and the answer's status),
// written whatever the outcome, as a middleware around the operator routes.
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { sql } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";
import type { AppEnv, Principal } from "../../host/http/env.ts";
import type { Logger } from "../../host/logger.ts";
import { redactBody } from "./redact-url.ts";

export function auditOperations(db: PlatformDb, logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Through Hono's body cache: the host has read the body already (request-text checks), the raw stream is spent.
    const body = await c.req.json().catch(() => null);
    try {
      await next();
    } finally {
      await record(
        c.get("principal"),
        c.req.path.split("/").pop() ?? c.req.path,
        body,
        c.res.status,
        c.get("requestId"),
      );
    }
  };

  async function record(principal: Principal, operation: string, body: unknown, status: number, requestId?: string) {
    try {
      await sql`insert into platform.operations_audit
          (id, organization_id, user_id, api_key_id, operation, request_body, status, request_id)
        values (${randomUUID()}, ${principal.organizationId}, ${principal.userId}, ${principal.apiKeyId ?? null},
          ${operation}, ${JSON.stringify(redactBody(body))}::jsonb, ${status}, ${requestId ?? null})`.execute(db);
    } catch (error) {
      // The call's own answer stands: a lost audit row is logged, never turned into the caller's error.
      logger.error("operations audit write failed", { operation, error: String(error) });
    }
  }
}
