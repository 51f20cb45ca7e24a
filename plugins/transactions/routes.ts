// Transaction-request routes: list the organisation's requests, read one.
import { createRoute, z } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChainId } from "../../host/chain/request-chain.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { TRANSACTION_REQUEST_COLLECTION } from "./collections.ts";
import { TransactionRequestSchema } from "./schemas.ts";
import { toTransactionRequest } from "./serialize.ts";

/** The spec's catch-up wait: a mined request's status waits this long for the index to reach its block. */
const INDEX_CATCH_UP_MS = 30_000;

const listTransactionRequests = collectionRoute({
  path: "/api/v2/transaction-requests",
  tags: ["transaction"],
  summary: "List the organisation's chain writes (newest first)",
  permission: "transaction:read",
  collection: TRANSACTION_REQUEST_COLLECTION,
  item: TransactionRequestSchema,
  listed: "The transaction requests",
});

const getTransactionRequest = createRoute({
  method: "get",
  path: "/api/v2/transaction-requests/{transactionId}",
  tags: ["transaction"],
  summary: "Read a queued chain write",
  middleware: [requirePermission("transaction:read")],
  request: { params: z.object({ transactionId: z.string().min(1).max(64) }) },
  responses: {
    200: {
      description: "The transaction request",
      content: { "application/json": { schema: z.object({ data: TransactionRequestSchema, links: linksSelf }) } },
    },
    ...errorResponses,
  },
});

export function transactionRoutes(app: App, ctx: PluginContext) {
  app.openapi(listTransactionRequests, async (c) => {
    const page = await collectionPage(
      c,
      TRANSACTION_REQUEST_COLLECTION,
      // The writes on the request's chain (X-Chain-Id, else the organisation's default network).
      async () =>
        ctx.db.platform
          .selectFrom("transactionRequests")
          .selectAll()
          .where("organizationId", "=", c.get("principal").organizationId)
          .where("chainId", "=", await requestChainId(c, ctx)),
      (rows) => rows.map(toTransactionRequest),
    );
    return c.json(page, 200);
  });

  app.openapi(getTransactionRequest, async (c) => {
    const { transactionId } = c.req.valid("param");
    const { organizationId } = c.get("principal");
    let row = await ctx.mutations.find(organizationId, transactionId);
    if (!row) throw new ApiError("NOT_FOUND", { message: `No transaction request ${transactionId}` });
    if (row.status === "COMPLETED" && row.blockNumber !== null) {
      // Reads after COMPLETED should see the write: give the index up to 30 s to reach the block.
      await ctx.index.waitForBlock(row.chainId, row.blockNumber, INDEX_CATCH_UP_MS);
      row = (await ctx.mutations.find(organizationId, transactionId)) ?? row;
    }
    return c.json(single(c, toTransactionRequest(row)), 200);
  });
}
