// The organisation's members and their roles: list, and replace one member's roles (owners and admins; only an
// owner grants or removes owner; the last owner keeps it). A member whose roles change gets a custody wallet.
import { createRoute } from "@hono/zod-openapi";
import { assertPermission, requirePermission } from "../../host/auth/require-permission.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { MEMBER_COLLECTION } from "./collections.ts";
import { setMemberRoles } from "./members.ts";
import { membersOf, toMember } from "./members-query.ts";
import { envelope, MemberParams, MemberSchema, SetRolesBodySchema } from "./schemas.ts";

const PATH = "/api/v2/organization/members";

const listMembers = collectionRoute({
  path: PATH,
  tags: ["organization"],
  summary: "List the organisation's members with their roles",
  permission: "organization:members:read",
  collection: MEMBER_COLLECTION,
  item: MemberSchema,
  listed: "The members, first joined first",
});

const setRoles = createRoute({
  method: "put",
  path: `${PATH}/{userId}/roles`,
  tags: ["organization"],
  summary: "Replace a member's roles",
  description:
    "Only an owner grants or removes owner (403 USER_NOT_AUTHORIZED); the last owner cannot drop it (409 " +
    "ORGANIZATION_LAST_OWNER); a user outside the organisation is 404 ORGANIZATION_MEMBER_NOT_FOUND.",
  middleware: [requirePermission("organization:members:manage")],
  request: { params: MemberParams, body: jsonBody(SetRolesBodySchema) },
  responses: { 200: jsonResponse(envelope(MemberSchema), "The member with the new roles"), ...errorResponses },
});

export function memberRoutes(app: App, ctx: PluginContext<"custody">) {
  const db = ctx.db.platform;

  app.openapi(listMembers, async (c) => {
    const members = () => membersOf(db, c.get("principal").organizationId);
    return c.json(await collectionPage(c, MEMBER_COLLECTION, members, (rows) => rows.map(toMember)), 200);
  });

  app.openapi(setRoles, async (c) => {
    const { organizationId, roles: callerRoles } = c.get("principal");
    const { userId } = c.req.valid("param");
    const { roles } = c.req.valid("json");
    await setMemberRoles(db, ctx.custody, {
      organizationId,
      userId,
      roles,
      authorize: (before, after) => {
        if (before.includes("owner") !== after.includes("owner"))
          assertPermission(callerRoles, "organization:owners:manage");
      },
    });
    const member = await membersOf(db, organizationId).where("userId", "=", userId).executeTakeFirstOrThrow();
    return c.json(single(c, toMember(member)), 200);
  });
}
