// GET /api/v2/sessions: the caller's live sessions, to end one with DELETE /api/v2/sessions/{sessionId}; owners and
// admins (session:read-others) see every member's of the organisation.
import { z } from "@hono/zod-openapi";
import { hasPermission } from "../../host/auth/permissions.ts";
import { collectionPage, collectionRoute, defineCollection } from "../../host/collections/index.ts";
import type { SessionsTable } from "../../host/db/platform-types.ts";
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";

const SessionSchema = z
  .object({
    id: z.string().openapi({ description: "The id DELETE /api/v2/sessions/{sessionId} ends" }),
    userId: z.string(),
    email: z.string(),
    current: z.boolean().openapi({ description: "The session this request came with" }),
    ipAddress: z.string().nullable().openapi({ description: "Where it signed in from" }),
    userAgent: z.string().nullable(),
    createdAt: z.string(),
    lastSeenAt: z.string(),
    expiresAt: z.string(),
  })
  .openapi("Session");

export const SESSION_COLLECTION = defineCollection({
  fields: {
    userId: { column: "s.userId", type: "text" },
    email: { column: "u.email", type: "text", sortable: true },
    createdAt: { column: "s.createdAt", type: "timestamp", sortable: true },
    lastSeenAt: { column: "s.lastSeenAt", type: "timestamp", sortable: true },
  },
  search: ["email"],
  defaultSort: "-lastSeenAt",
  tiebreaker: "s.id",
});

const listSessions = collectionRoute({
  path: "/api/v2/sessions",
  tags: ["auth"],
  summary: "List live sessions (yours, or the organisation's members' as owner or admin)",
  description:
    "Signed-in sessions that have not ended or expired, newest activity first. Owners and admins " +
    "(session:read-others) see every member of the organisation's; others their own. End one with " +
    "DELETE /api/v2/sessions/{sessionId}.",
  permission: "session:read",
  collection: SESSION_COLLECTION,
  item: SessionSchema,
  listed: "The live sessions",
});

type SessionRow = Pick<SessionsTable, "id" | "userId" | "ipAddress" | "userAgent" | "expiresAt"> & {
  email: string;
  createdAt: Date;
  lastSeenAt: Date;
};

export function sessionListRoute(app: App, ctx: PluginContext) {
  app.openapi(listSessions, async (c) => {
    const principal = c.get("principal");
    const everyMember = hasPermission(principal.roles, "session:read-others");
    const toItem = (row: SessionRow): z.infer<typeof SessionSchema> => ({
      id: row.id,
      userId: row.userId,
      email: row.email,
      current: row.id === principal.sessionId,
      ipAddress: row.ipAddress,
      userAgent: row.userAgent,
      createdAt: new Date(row.createdAt).toISOString(),
      lastSeenAt: new Date(row.lastSeenAt).toISOString(),
      expiresAt: new Date(row.expiresAt).toISOString(),
    });
    const page = await collectionPage(
      c,
      SESSION_COLLECTION,
      () =>
        ctx.db.platform
          .selectFrom("sessions as s")
          .innerJoin("users as u", "u.id", "s.userId")
          .select(["s.id", "s.userId", "u.email", "s.ipAddress", "s.userAgent", "s.createdAt", "s.lastSeenAt"])
          .select("s.expiresAt")
          .where("s.stage", "=", "active")
          .where("s.revokedAt", "is", null)
          .where("s.expiresAt", ">", new Date())
          .$if(!everyMember, (q) => q.where("s.userId", "=", principal.userId))
          .$if(everyMember, (q) =>
            q.where("s.userId", "in", (eb) =>
              eb.selectFrom("memberships").select("userId").where("organizationId", "=", principal.organizationId),
            ),
          ),
      (rows) => rows.map((row) => toItem(row as SessionRow)),
    );
    return c.json(page, 200);
  });
}
