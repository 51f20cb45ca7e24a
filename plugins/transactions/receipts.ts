// GET /api/v2/blockchain-transactions/{transactionHash}: the receipt, live (as the spec says) from the request's chain.
import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "kysely";
import { type Hex, type PublicClient, TransactionReceiptNotFoundError } from "viem";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestServedChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, linksSelf } from "../../host/http/schemas.ts";
import { decodeContractError } from "../../host/mutations/contract-errors.ts";
import type { PluginContext } from "../../host/plugin.ts";

const ReceiptSchema = z
  .object({
    status: z.enum(["Success", "Reverted"]),
    revertReason: z.string().nullable(),
    revertReasonDecoded: z.string().nullable(),
    blockNumber: z.string(),
    blockHash: z.string(),
    gasUsed: z.string(),
    effectiveGasPrice: z.string(),
    from: z.string(),
    to: z.string().nullable(),
  })
  .openapi("TransactionReceipt");

const route = createRoute({
  method: "get",
  path: "/api/v2/blockchain-transactions/{transactionHash}",
  tags: ["transaction"],
  summary: "Look up a transaction's receipt on the chain",
  middleware: [requirePermission("transaction:read")],
  request: {
    params: z.object({ transactionHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "a 0x-prefixed 32-byte hash") }),
  },
  responses: {
    200: {
      description: "The receipt; null while a caller-visible request has none yet",
      content: {
        "application/json": {
          schema: z.object({
            data: z.object({
              transactionHash: z.string(),
              from: z.string().nullable(),
              receipt: ReceiptSchema.nullable(),
            }),
            links: linksSelf,
          }),
        },
      },
    },
    ...errorResponses,
  },
});

/** The revert data of a mined, reverted transaction, by replaying it at its block. */
async function revertOf(
  client: PublicClient,
  hash: Hex,
  blockNumber: bigint,
): Promise<{ raw: string | null; decoded: string | null }> {
  try {
    const tx = await client.getTransaction({ hash });
    await client.call({
      account: tx.from,
      to: tx.to ?? undefined,
      data: tx.input,
      value: tx.value,
      blockNumber,
    });
    return { raw: null, decoded: null };
  } catch (error) {
    const decoded = decodeContractError(error);
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { raw: message, decoded: decoded?.message ?? null };
  }
}

export function receiptRoutes(app: App, ctx: PluginContext) {
  app.openapi(route, async (c) => {
    const hash = c.req.valid("param").transactionHash.toLowerCase() as Hex;
    const { organizationId } = c.get("principal");
    // The request's chain alone: a receipt needs no system of the organisation there.
    const { chainId, client } = await requestServedChain(c, ctx);
    const record = await ctx.db.platform
      .selectFrom("transactionRequests")
      .select(["fromAddress"])
      .where("organizationId", "=", organizationId)
      .where("chainId", "=", chainId)
      // A hash a fee bump replaced still belongs to the caller's write.
      .where((eb) => eb.or([eb("transactionHash", "=", hash), sql<boolean>`${hash} = any(replaced_hashes)`]))
      .executeTakeFirst();
    const receipt = await client.getTransactionReceipt({ hash }).catch((error) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw new ApiError("SERVICE_UNAVAILABLE", { message: "The chain could not be reached" });
    });
    if (!receipt) {
      if (!record)
        throw new ApiError("NOT_FOUND", { message: `No transaction ${hash} on the chain or in your organisation` });
      return c.json(single(c, { transactionHash: hash, from: record.fromAddress, receipt: null }), 200);
    }
    const reverted = receipt.status === "reverted";
    const revert = reverted ? await revertOf(client, hash, receipt.blockNumber) : { raw: null, decoded: null };
    const data = {
      transactionHash: hash,
      from: receipt.from,
      receipt: {
        status: reverted ? ("Reverted" as const) : ("Success" as const),
        revertReason: revert.raw,
        revertReasonDecoded: revert.decoded,
        blockNumber: receipt.blockNumber.toString(),
        blockHash: receipt.blockHash,
        gasUsed: receipt.gasUsed.toString(),
        effectiveGasPrice: receipt.effectiveGasPrice.toString(),
        from: receipt.from,
        to: receipt.to,
      },
    };
    return c.json(single(c, data), 200);
  });
}
