// GET/PUT /api/v2/settings/executor-policy: whether the organisation lets its writes run through smart wallets
// (X-Executor: smart-wallet), beside the platform's own switch (ACCOUNT_ABSTRACTION_ENABLED), and the executor of
// its writes that name none (the spec's "default: organisation executor policy").
import { createRoute, z } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";

const ExecutorSchema = z.enum(["eoa", "smart-wallet"]);

const PolicySchema = z
  .object({
    accountAbstractionEnabled: z.boolean().openapi({ description: "The organisation allows X-Executor: smart-wallet" }),
    accountAbstractionAvailable: z
      .boolean()
      .openapi({ description: "The platform allows it at all (ACCOUNT_ABSTRACTION_ENABLED)" }),
    defaultExecutor: ExecutorSchema.openapi({
      description: "The executor of writes without X-Executor (smart-wallet only while the organisation allows it)",
    }),
  })
  .openapi("ExecutorPolicy");
const PolicyResponse = jsonResponse(z.object({ data: PolicySchema, links: linksSelf }), "The executor policy");

const read = createRoute({
  method: "get",
  path: "/api/v2/settings/executor-policy",
  tags: ["settings"],
  summary: "The organisation's executor policy",
  middleware: [requirePermission("organization:read")],
  responses: { 200: PolicyResponse, ...errorResponses },
});

const update = createRoute({
  method: "put",
  path: "/api/v2/settings/executor-policy",
  tags: ["settings"],
  summary: "Allow or forbid smart-wallet execution in the organisation, and choose the default executor",
  middleware: [requirePermission("organization:settings")],
  request: {
    body: jsonBody(
      z
        .object({ accountAbstractionEnabled: z.boolean().optional(), defaultExecutor: ExecutorSchema.optional() })
        .openapi("ExecutorPolicyUpdate"),
    ),
  },
  responses: { 200: PolicyResponse, ...errorResponses },
});

export function executorPolicyRoutes(app: App, ctx: PluginContext) {
  const policy = async (organizationId: string) => {
    const org = await ctx.db.platform
      .selectFrom("organizations")
      .select(["accountAbstractionEnabled", "defaultExecutor"])
      .where("id", "=", organizationId)
      .executeTakeFirstOrThrow();
    return {
      accountAbstractionEnabled: org.accountAbstractionEnabled,
      accountAbstractionAvailable: ctx.config.ACCOUNT_ABSTRACTION_ENABLED,
      defaultExecutor: org.defaultExecutor,
    };
  };
  app.openapi(read, async (c) => c.json(single(c, await policy(c.get("principal").organizationId)), 200));
  app.openapi(update, async (c) => {
    const { organizationId } = c.get("principal");
    const body = c.req.valid("json");
    const current = await policy(organizationId);
    const enabled = body.accountAbstractionEnabled ?? current.accountAbstractionEnabled;
    // Forbidding smart wallets makes the EOAs the default again; smart-wallet as default needs them allowed.
    const defaultExecutor = enabled ? (body.defaultExecutor ?? current.defaultExecutor) : "eoa";
    if (body.defaultExecutor === "smart-wallet") {
      if (!ctx.config.ACCOUNT_ABSTRACTION_ENABLED) throw new ApiError("X_EXECUTOR_AA_DISABLED_GLOBALLY");
      if (!enabled) throw new ApiError("X_EXECUTOR_AA_DISABLED_FOR_ORG");
    }
    await ctx.db.platform
      .updateTable("organizations")
      .set({ accountAbstractionEnabled: enabled, defaultExecutor })
      .where("id", "=", organizationId)
      .execute();
    return c.json(single(c, await policy(organizationId)), 200);
  });
}
