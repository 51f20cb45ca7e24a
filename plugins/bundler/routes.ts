// POST /api/v2/bundler: the ERC-4337 bundler's JSON-RPC endpoint (json-rpc.ts), authenticated like every /api/v2
// route, on the request's chain (X-Chain-Id, else the organisation's default). The body is parsed here, not by the
// route's validator, so a malformed one is a JSON-RPC -32700, not a 400; the OpenAPI document still describes it,
// from the zod schemas.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestServedChain } from "../../host/chain/request-chain.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { errorResponses } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { throttledWarnings } from "../../host/throttled-log.ts";
import { answerJsonRpc, JsonRpcRequestSchema, JsonRpcResponseSchema } from "./json-rpc.ts";
import type { BundlerSettings } from "./settings.ts";

const BodySchema = z.union([JsonRpcRequestSchema, z.array(JsonRpcRequestSchema)]);
// OpenAPI 3.1's schema dialect is JSON Schema 2020-12 (the document names its dialect, not each schema).
const { $schema: _dialect, ...bodyJsonSchema } = z.toJSONSchema(BodySchema, { target: "draft-2020-12", io: "input" });

const bundlerRoute = createRoute({
  method: "post",
  path: "/api/v2/bundler",
  tags: ["bundler"],
  summary: "ERC-4337 bundler (JSON-RPC 2.0, ERC-7769 methods)",
  description:
    "eth_chainId, eth_supportedEntryPoints, eth_sendUserOperation, eth_estimateUserOperationGas, " +
    "eth_getUserOperationByHash, eth_getUserOperationReceipt; debug_bundler_* when BUNDLER_DEBUG_METHODS is true. " +
    "A request without id is a notification (204 when nothing is answered). Permissions, checked per method and " +
    "refused as a JSON-RPC error 4100: bundler:read (every role) for the reads and estimates, bundler:send (every " +
    "role but auditor) for eth_sendUserOperation, bundler:debug (owner, admin) for debug_bundler_*. A sender's " +
    "operations paid by a paymaster are limited per 24 hours (BUNDLER_SPONSORED_OPERATIONS_PER_DAY, " +
    "BUNDLER_SPONSORED_WEI_PER_DAY; -32504); an operation whose paymaster or factory ERC-7562 reputation bans (or " +
    "throttles past its limit) is -32504; a batch holds at most BUNDLER_MAX_BATCH_SIZE requests (-32005).",
  middleware: [requirePermission("bundler:read")],
  request: {
    // A JSON Schema, not a zod schema: the route parses the body itself (parse errors are JSON-RPC's -32700).
    body: {
      required: true,
      content: { "application/json": { schema: bodyJsonSchema as never } },
    },
  },
  responses: {
    200: {
      description: "The JSON-RPC response (an array for a batch); errors carry the JSON-RPC and ERC-7769 codes",
      content: { "application/json": { schema: z.union([JsonRpcResponseSchema, z.array(JsonRpcResponseSchema)]) } },
    },
    204: { description: "Only notifications: nothing to answer" },
    ...errorResponses,
  },
});

export function bundlerRoutes(app: App, ctx: PluginContext<never, BundlerSettings>) {
  const logger = ctx.logger;
  // Under overload every call in flight can fail at once: one line per part and interval, not one per call.
  const warnUnanswered = throttledWarnings(logger);
  app.openapi(bundlerRoute, (async (c: Context<AppEnv>) => {
    // The served chain alone (an unknown X-Chain-Id is refused before any JSON-RPC): the methods need no system there.
    // Eager: a method's calls to the node follow one another (a bundler client waits on each answer); only those of
    // concurrent requests made while the node is busy go out together.
    const chain = await requestServedChain(c, ctx, { eager: true });
    const answer = await answerJsonRpc(await c.req.text(), {
      ctx,
      principal: c.get("principal"),
      chain,
      requestId: c.get("requestId"),
      debugMethods: ctx.settings.BUNDLER_DEBUG_METHODS,
      maxBatchSize: ctx.settings.BUNDLER_MAX_BATCH_SIZE,
      onUnexpected: (error) =>
        logger.error("bundler method failed", { error: String((error as Error)?.stack ?? error) }),
      onUnavailable: (error, dependency) =>
        warnUnanswered(
          dependency,
          dependency === "chain"
            ? "bundler method: the chain's node did not answer"
            : "bundler method: the database did not answer",
          { error: String(error) },
        ),
    });
    return answer === undefined ? c.body(null, 204) : c.json(answer as never, 200);
  }) as never);
}
