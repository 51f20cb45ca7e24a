// Response schemas of the transaction-request routes.
import { z } from "@hono/zod-openapi";
import { TRANSACTION_SPEEDS } from "../../host/chain/transaction-speed.ts";

export const TRANSACTION_STATUSES = [
  "QUEUED",
  "PENDING_APPROVAL",
  "CONFIRMING",
  "COMPLETED",
  "FAILED",
  "DEAD_LETTER",
  "CANCELLED",
] as const;

export const TransactionRequestSchema = z
  .object({
    transactionId: z.string(),
    kind: z.string(),
    status: z.enum(TRANSACTION_STATUSES),
    subStatus: z.string().nullable(),
    transactionHash: z.string().nullable(),
    transactionHashes: z.array(z.string()).openapi({
      description:
        "Every hash the request was broadcast as, oldest first: fee bumps (same nonce) and signings anew (another " +
        "nonce, when one of the signer's other transactions took it). At most one of them is ever mined: `transactionHash`.",
    }),
    blockNumber: z.string().nullable(),
    errorMessage: z.string().nullable(),
    contractError: z
      .object({
        id: z.string(),
        args: z.record(z.string(), z.string()),
        why: z.string(),
        message: z.string(),
        fix: z.string(),
        dalpCode: z.string().openapi({
          description: "The custom error's stable code (e.g. TOKEN_PAUSED): branch on it, never on the message",
        }),
        retryable: z.boolean().openapi({
          description:
            "true when the same write can pass once the chain state named changes (a pause, a role, a balance)",
        }),
        suggestedAction: z.string().openapi({ description: "What to do before sending the write again" }),
      })
      .optional(),
    description: z.string().nullable(),
    fromAddress: z.string(),
    chainId: z.number().int(),
    speed: z.enum(TRANSACTION_SPEEDS).openapi({
      description: "How much the write bids to be mined (its X-Transaction-Speed; standard when none was sent).",
    }),
    result: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("TransactionRequest");
export type TransactionRequest = z.infer<typeof TransactionRequestSchema>;
