// The four operator routes of workflow-engine recovery (POST, every call audited). The workers are shared by every
// organisation, so each route needs the platform operator's platform:operate permission, which no organisation role
// grants (host/auth/platform-roles.ts); the doctor's deployments (host names, worker pids) are shown to them only.
import { createRoute, z } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { auditOperations } from "./audit.ts";
import { cleanupStaleDeployments, forceRedeploy } from "./deployments.ts";
import { doctor } from "./doctor.ts";
import { recoverStuckWorkflow } from "./recovery.ts";
import {
  AcknowledgedSchema,
  CleanupBodySchema,
  DoctorBodySchema,
  DoctorSchema,
  ForceRedeployBodySchema,
  RecoverBodySchema,
} from "./schemas.ts";
import { fromServiceName } from "./service-names.ts";

const BASE = "/api/v2/admin/operator/workflow-engine";

function operatorRoute<Body extends z.ZodType, Data extends z.ZodType>(
  ctx: PluginContext,
  path: string,
  summary: string,
  body: Body,
  data: Data,
) {
  return createRoute({
    method: "post",
    path: `${BASE}/${path}`,
    tags: ["system"],
    summary,
    description:
      "The platform operator's platform:operate permission, held by a platform-level role that no organisation role grants (OFFCHAIN_USER_PERMISSION_REQUIRED otherwise); jobs are those of the active organisation only; every call is written to the operations audit log with credentials inside URLs replaced by REDACTED.",
    middleware: [
      auditOperations(ctx.db.platform, ctx.logger),
      requirePermission("platform:operate", "OFFCHAIN_USER_PERMISSION_REQUIRED"),
    ],
    request: { body: jsonBody(body) },
    responses: { 200: jsonResponse(z.object({ data, links: linksSelf }), summary), ...errorResponses },
  });
}

export function workflowEngineRoutes(app: App, ctx: PluginContext) {
  const db = ctx.db.platform;

  app.openapi(
    operatorRoute(ctx, "doctor", "The workflow engine's readout (graphile-worker)", DoctorBodySchema, DoctorSchema),
    async (c) => {
      const healthUrl = new URL("/healthz", c.req.url).toString();
      return c.json(single(c, await doctor(db, healthUrl, c.get("principal").organizationId)), 200);
    },
  );

  app.openapi(
    operatorRoute(
      ctx,
      "force-redeploy",
      "Register a running worker process again and wake the workers",
      ForceRedeployBodySchema,
      AcknowledgedSchema,
    ),
    async (c) => {
      const { serviceUrl, force } = c.req.valid("json");
      const deploymentId = await forceRedeploy(db, serviceUrl, force);
      return c.json(single(c, { acknowledged: true, deploymentId }), 200);
    },
  );

  app.openapi(
    operatorRoute(
      ctx,
      "cleanup-stale-deployments",
      "Keep one deployment; release the jobs of the others' stopped processes and remove them",
      CleanupBodySchema,
      AcknowledgedSchema,
    ),
    async (c) => {
      const { serviceUrl, forceDrain } = c.req.valid("json");
      await cleanupStaleDeployments(db, serviceUrl, forceDrain);
      return c.json(single(c, { acknowledged: true }), 200);
    },
  );

  app.openapi(
    operatorRoute(
      ctx,
      "recover-stuck-workflow",
      "Purge the permanently failed job of a task under a key",
      RecoverBodySchema,
      AcknowledgedSchema,
    ),
    async (c) => {
      const { serviceName, serviceKey } = c.req.valid("json");
      const organizationId = c.get("principal").organizationId;
      await recoverStuckWorkflow(db, organizationId, fromServiceName(serviceName), fromServiceName(serviceKey));
      return c.json(single(c, { acknowledged: true }), 200);
    },
  );
}
