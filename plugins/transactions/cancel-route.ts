// POST /api/v2/transaction-requests/{transactionId}/cancel: withdraws a queued chain write before it is signed.
import { createRoute, z } from "@hono/zod-openapi";
import { assertPermission, requirePermission } from "../../host/auth/require-permission.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { statusUrl } from "../../host/http/envelopes.ts";
import { errorResponses, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { TransactionRequestSchema } from "./schemas.ts";
import { toTransactionRequest } from "./serialize.ts";

const cancelTransactionRequest = createRoute({
  method: "post",
  path: "/api/v2/transaction-requests/{transactionId}/cancel",
  tags: ["transaction"],
  summary: "Cancel a queued chain write",
  description:
    "Only while the request is QUEUED and its transaction not yet signed: it then never reaches the chain and takes " +
    "no nonce. Afterwards (signed, CONFIRMING or terminal) 409 TRANSACTION_REQUEST_NOT_CANCELLABLE with data.status. " +
    "Cancelling a cancelled request answers it again. The request's creator may cancel it, owners and admins any.",
  middleware: [requirePermission("transaction:read")],
  request: { params: z.object({ transactionId: z.string().min(1).max(64) }) },
  responses: {
    200: {
      description: "The transaction request, CANCELLED",
      content: { "application/json": { schema: z.object({ data: TransactionRequestSchema, links: linksSelf }) } },
    },
    ...errorResponses,
  },
});

export function cancelRoute(app: App, ctx: PluginContext) {
  app.openapi(cancelTransactionRequest, async (c) => {
    const { transactionId } = c.req.valid("param");
    const { organizationId, userId, roles } = c.get("principal");
    const request = await ctx.mutations.find(organizationId, transactionId);
    if (!request) throw new ApiError("NOT_FOUND", { message: `No transaction request ${transactionId}` });
    if (request.createdBy !== userId) assertPermission(roles, "transaction:cancel-others"); // others' requests
    const row = (await ctx.mutations.cancel(organizationId, transactionId)) ?? request;
    if (row.status !== "CANCELLED") {
      throw new ApiError("TRANSACTION_REQUEST_NOT_CANCELLABLE", {
        details: { transactionId: row.id, status: row.status, subStatus: row.subStatus },
      });
    }
    // The resource is the request itself, so its link is the status URL rather than this action's path.
    return c.json({ data: toTransactionRequest(row), links: { self: statusUrl(row.id) } }, 200);
  });
}
