// POST /api/v2/organizations: a signed-in person creates an organisation (they become its owner, and it becomes their
// session's active organisation) and its deployment starts; GET /api/v2/organizations/deploy/{deploymentId}/stream
// follows it. A repeat with the same Idempotency-Key answers the same ids and resumes a failed deployment.

import { createRoute, z } from "@hono/zod-openapi";
import type pg from "pg";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { setActiveOrganization } from "../../host/auth/sessions.ts";
import { listenChannel } from "../../host/db/notifications.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { errorResponses, jsonBody } from "../../host/http/schemas.ts";
import { effectiveIdempotencyKey, IDEMPOTENT_REPLAYED } from "../../host/mutations/idempotency.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { TaskPayload } from "../../host/worker/define-task.ts";
import { streamDeployment } from "./deployment-stream.ts";
import { DEPLOY_TASK, type DeployPayload, deploymentTree, resumeDeployment, startDeployment } from "./deployments.ts";
import { DEPLOYMENT_CHANNEL } from "./migrations.ts";

const CreateOrganizationSchema = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "Acme" }),
    chainId: z
      .number()
      .int()
      .min(1)
      .max(9007199254740991)
      .optional()
      .openapi({
        description:
          "Its default network, where its system is deployed first (its systems on the platform's other chains " +
          "follow); default: the platform's primary chain",
      }),
  })
  .strict()
  .openapi("OrganizationCreate");

const DeploymentAcceptedSchema = z
  .object({
    organizationId: z.string(),
    deploymentId: z.string(),
    status: z.enum(["running", "succeeded", "failed"]),
    streamUrl: z.string().openapi({ description: "The deployment stream (also in Location)" }),
  })
  .openapi("OrganizationDeploymentAccepted");

const create = createRoute({
  method: "post",
  path: "/api/v2/organizations",
  tags: ["organization"],
  summary: "Create an organisation (a signed-in person becomes its owner) and start deploying its system",
  request: {
    body: jsonBody(CreateOrganizationSchema),
    headers: z.object({ "idempotency-key": z.string().max(255).optional() }),
  },
  responses: {
    202: {
      description: "Deployment started (or, for a repeated Idempotency-Key, the same one; a failed one resumed)",
      headers: z.object({
        Location: z.string(),
        "Idempotency-Key": z.string(),
        "Idempotent-Replayed": z
          .literal("true")
          .optional()
          .openapi({ description: "true when a repeated Idempotency-Key answers the deployment it started" }),
      }),
      content: { "application/json": { schema: DeploymentAcceptedSchema } },
    },
    ...errorResponses,
  },
});

const stream = createRoute({
  method: "get",
  path: "/api/v2/organizations/deploy/{deploymentId}/stream",
  tags: ["organization"],
  summary: "Follow an organisation's deployment: server-sent events tree, update, complete, error",
  middleware: [requirePermission("organization:read")],
  request: { params: z.object({ deploymentId: z.string().min(1).max(64) }) },
  responses: {
    200: {
      description:
        "text/event-stream: `tree` (the deployment's nodes), `update` (one node, by nodeId), `complete` (success, " +
        "failedSteps with wireError; closes the stream), `error` (the public error object)",
      content: { "text/event-stream": { schema: z.string() } },
    },
    ...errorResponses,
  },
});

export function organizationRoutes(app: App, ctx: PluginContext) {
  const db = ctx.db.platform;
  const listener = listenChannel(ctx.db.pool.options as pg.ClientConfig, DEPLOYMENT_CHANNEL);

  app.openapi(create, async (c) => {
    const principal = c.get("principal");
    // An API key belongs to one organisation; creating another is a person's act.
    if (principal.kind !== "session" || !principal.sessionId) {
      throw new ApiError("SESSION_POLICY_DENIED", {
        message: "API keys cannot create organisations: sign in as a person",
      });
    }
    const body = c.req.valid("json");
    const chainId = body.chainId ?? ctx.chains.primary.chainId;
    if (!ctx.chains.has(chainId)) throw new ApiError("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION", { details: { chainId } });
    const idempotencyKey = effectiveIdempotencyKey(c.req.header("idempotency-key"));
    const started = await startDeployment(db, {
      name: body.name,
      chainId,
      userId: principal.userId,
      idempotencyKey,
    });
    let { deployment } = started;
    if (deployment.status === "failed" && (await resumeDeployment(db, deployment.id))) {
      deployment = { ...deployment, status: "running" };
    }
    // Added again on a repeat too: the job key folds it into a pending run, and a run finding it done does nothing.
    if (deployment.status === "running") {
      await ctx.addJob(DEPLOY_TASK, { deploymentId: deployment.id } satisfies TaskPayload<typeof DeployPayload>, {
        jobKey: `deploy-organization:${deployment.id}`,
        queueName: `provision:${deployment.organizationId}`,
        maxAttempts: 3,
      });
    }
    await setActiveOrganization(db, principal.sessionId, deployment.organizationId);
    const streamUrl = `/v2/organizations/deploy/${deployment.id}/stream`;
    c.header("Location", streamUrl);
    c.header("Idempotency-Key", idempotencyKey);
    if (!started.created) c.header(IDEMPOTENT_REPLAYED, "true");
    const data = {
      organizationId: deployment.organizationId,
      deploymentId: deployment.id,
      status: deployment.status,
      streamUrl,
    };
    return c.json(data, 202);
  });

  app.openapi(stream, async (c) => {
    const { organizationId } = c.get("principal");
    const { deploymentId } = c.req.valid("param");
    // Checked before the stream starts, so another organisation's deployment is a plain 404 response.
    if (!(await deploymentTree(db, deploymentId, organizationId)))
      throw new ApiError("ORGANIZATION_DEPLOYMENT_NOT_FOUND");
    return streamDeployment(c, { db, listener, logger: ctx.logger, deploymentId, organizationId }) as never;
  });
}
