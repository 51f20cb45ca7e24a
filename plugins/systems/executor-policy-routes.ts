// GET/PUT /api/v2/settings/executor-policy: whether the organisation lets its writes run through smart wallets
// (X-Executor: smart-wallet), beside the platform's own switch (ACCOUNT_ABSTRACTION_ENABLED).
import { createRoute, z } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";

const PolicySchema = z
  .object({
    accountAbstractionEnabled: z.boolean().openapi({ description: "The organisation allows X-Executor: smart-wallet" }),
    accountAbstractionAvailable: z
      .boolean()
      .openapi({ description: "The platform allows it at all (ACCOUNT_ABSTRACTION_ENABLED)" }),
    defaultExecutor: z.literal("eoa").openapi({ description: "The executor of writes without X-Executor" }),
  })
  .openapi("ExecutorPolicy");
const PolicyResponse = jsonResponse(z.object({ data: PolicySchema, links: linksSelf }), "The executor policy");

const read = createRoute({
  method: "get",
  path: "/api/v2/settings/executor-policy",
  tags: ["settings"],
  summary: "The organisation's executor policy",
  responses: { 200: PolicyResponse, ...errorResponses },
});

const update = createRoute({
  method: "put",
  path: "/api/v2/settings/executor-policy",
  tags: ["settings"],
  summary: "Allow or forbid smart-wallet execution in the organisation",
  middleware: [requirePermission("organization:settings")],
  request: { body: jsonBody(z.object({ accountAbstractionEnabled: z.boolean() }).openapi("ExecutorPolicyUpdate")) },
  responses: { 200: PolicyResponse, ...errorResponses },
});

export function executorPolicyRoutes(app: App, ctx: PluginContext) {
  const policy = async (organizationId: string) => {
    const org = await ctx.db.platform
      .selectFrom("organizations")
      .select("accountAbstractionEnabled")
      .where("id", "=", organizationId)
      .executeTakeFirstOrThrow();
    return {
      accountAbstractionEnabled: org.accountAbstractionEnabled,
      accountAbstractionAvailable: ctx.config.ACCOUNT_ABSTRACTION_ENABLED,
      defaultExecutor: "eoa" as const,
    };
  };
  app.openapi(read, async (c) => c.json(single(c, await policy(c.get("principal").organizationId)), 200));
  app.openapi(update, async (c) => {
    const { organizationId } = c.get("principal");
    await ctx.db.platform
      .updateTable("organizations")
      .set({ accountAbstractionEnabled: c.req.valid("json").accountAbstractionEnabled })
      .where("id", "=", organizationId)
      .execute();
    return c.json(single(c, await policy(organizationId)), 200);
  });
}
