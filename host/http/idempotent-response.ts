// Idempotency-Key for writes that are not chain writes (they answer 202 without a transaction request, e.g. a
// webhook delivery's retry): the first answer is recorded per organisation, caller and key, and a repeat of the same
// request within the window gets it again (`Idempotent-Replayed: true`) instead of doing the work twice. Chain writes
// deduplicate on their transaction request instead (host/mutations/idempotency.ts).
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { Kysely, Selectable } from "kysely";
import type { IdempotentResponsesTable, PlatformTables } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";
import { effectiveIdempotencyKey, IDEMPOTENCY_WINDOW_MS, IDEMPOTENT_REPLAYED } from "../mutations/idempotency.ts";
import type { AppEnv } from "./env.ts";

type Scope = { organizationId: string; caller: string; key: string };

/** What makes a repeat the same request: method, path, query and body (the caller is part of the row's key). */
function fingerprintOf(request: Request, body: string): string {
  const url = new URL(request.url);
  return createHash("sha256").update(`${request.method} ${url.pathname}${url.search}\n${body}`).digest("hex");
}

/** The middleware; `Idempotency-Key` is echoed on every answer (generated when the caller sent none). */
export function idempotentResponse(db: Kysely<PlatformTables>): MiddlewareHandler<AppEnv> {
  const rows = (scope: Scope) =>
    db
      .selectFrom("idempotentResponses")
      .selectAll()
      .where("organizationId", "=", scope.organizationId)
      .where("caller", "=", scope.caller)
      .where("key", "=", scope.key);
  return async (c, next) => {
    const { organizationId, userId, apiKeyId } = c.get("principal");
    const scope = {
      organizationId,
      caller: apiKeyId ?? userId,
      key: effectiveIdempotencyKey(c.req.header("idempotency-key")),
    };
    const fingerprint = fingerprintOf(c.req.raw, await c.req.text());
    for (;;) {
      const claimed = await db
        .insertInto("idempotentResponses")
        .values({ ...scope, fingerprint })
        .onConflict((oc) => oc.columns(["organizationId", "caller", "key"]).doNothing())
        .returning("key")
        .executeTakeFirst();
      if (claimed) break;
      const first = await rows(scope).executeTakeFirst();
      if (first) return replay(c, scope.key, fingerprint, first);
      // Released in between (the first request was refused): claim it again.
    }
    c.header("Idempotency-Key", scope.key);
    try {
      await next();
    } finally {
      await settle(db, c, scope);
    }
  };
}

/** Records a success; a refusal or a failure releases the key, so the corrected request can use it again. */
async function settle(db: Kysely<PlatformTables>, c: Context<AppEnv>, scope: Scope): Promise<void> {
  const where = db
    .updateTable("idempotentResponses")
    .where("organizationId", "=", scope.organizationId)
    .where("caller", "=", scope.caller)
    .where("key", "=", scope.key);
  if (!c.error && c.res.status >= 200 && c.res.status < 300) {
    await where.set({ statusCode: c.res.status, body: await c.res.clone().text() }).execute();
  } else {
    await db
      .deleteFrom("idempotentResponses")
      .where("organizationId", "=", scope.organizationId)
      .where("caller", "=", scope.caller)
      .where("key", "=", scope.key)
      .execute();
  }
  await db
    .deleteFrom("idempotentResponses")
    .where("organizationId", "=", scope.organizationId)
    .where("createdAt", "<", new Date(Date.now() - 2 * IDEMPOTENCY_WINDOW_MS))
    .execute();
}

function replay(
  c: Context<AppEnv>,
  key: string,
  fingerprint: string,
  first: Selectable<IdempotentResponsesTable>,
): Response {
  const details = { idempotencyKey: key };
  if (Date.now() - new Date(first.createdAt).getTime() > IDEMPOTENCY_WINDOW_MS)
    throw new ApiError("IDEMPOTENCY_KEY_EXPIRED", { details });
  if (first.fingerprint !== fingerprint) throw new ApiError("IDEMPOTENCY_KEY_REUSED", { details });
  if (first.statusCode === null || first.body === null)
    throw new ApiError("IDEMPOTENCY_REQUEST_IN_PROGRESS", { details });
  c.header("Idempotency-Key", key);
  c.header(IDEMPOTENT_REPLAYED, "true");
  return c.body(first.body, first.statusCode as 202, { "Content-Type": "application/json" });
}
