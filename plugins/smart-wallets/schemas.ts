// Request and response shapes of the smart-wallet routes (the spec leaves them to us: kept stable from here on).
import { z } from "@hono/zod-openapi";
import { AddressSchema, linksSelf, WalletVerificationSchema } from "../../host/http/schemas.ts";

/** The single-resource envelope of a response. */
export const dataOf = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema, links: linksSelf });

const UINT64_MAX = 2n ** 64n - 1n;
/** A decimal uint64 from 1: weights and thresholds are weight sums held in uint64. */
export const isUint64FromOne = (value: string) => /^[1-9]\d{0,19}$/.test(value) && BigInt(value) <= UINT64_MAX;

const WeightSchema = z
  .string()
  .refine(isUint64FromOne, "must be a decimal integer from 1 to 18446744073709551615")
  .openapi({ example: "1" });

export const CreateSmartWalletSchema = z
  .object({
    validatorType: z
      .enum(["ecdsa", "weighted-multisig"])
      .optional()
      .openapi({
        description:
          "ecdsa: one signer (default: the participant's custody wallet); weighted-multisig: signers with weights and " +
          "a threshold (a weight sum, not a count). Default: weighted-multisig when signers and threshold are given.",
      }),
    signers: z
      .array(
        z.object({ address: AddressSchema, weight: WeightSchema.optional().openapi({ description: "Default 1" }) }),
      )
      .min(1)
      .max(32)
      .optional()
      .openapi({ description: "The initial signers, in this order (the wallet's address depends on it)" }),
    threshold: z.string().optional().openapi({ description: "Decimal 1 to 18446744073709551615", example: "2" }),
    description: z.string().max(280).optional(),
    sponsored: z
      .boolean()
      .optional()
      .openapi({
        description:
          "Whether the organisation's paymaster pays the wallet's gas. Default: true when every signer is a custody " +
          "wallet of the organisation (keys only the platform holds), else false. true for a wallet with another " +
          "signer is an explicit decision that needs the smartWallet:sponsor permission.",
      }),
    walletVerification: WalletVerificationSchema.optional().openapi({
      description: "Required for session callers (the deployment signs chain transactions); API keys omit it",
    }),
  })
  .openapi("CreateSmartWallet");

export const ThresholdBodySchema = z
  .object({
    threshold: z.string().openapi({ description: "Decimal integer 1 to 18446744073709551615", example: "2" }),
    walletVerification: WalletVerificationSchema.optional(),
  })
  .openapi("SmartWalletThreshold");

export const SignApprovalBodySchema = z
  .object({ walletVerification: WalletVerificationSchema.optional() })
  .openapi("SignSmartWalletApproval");

const SignerSchema = z.object({ address: z.string(), weight: z.string() });

export const SmartWalletSchema = z
  .object({
    address: z.string(),
    chainId: z.number().int(),
    participantId: z.string(),
    validatorType: z.enum(["ecdsa", "weighted-multisig"]),
    description: z.string().nullable(),
    signers: z.array(SignerSchema).openapi({ description: "The initial signer set (live set: GET …/signers)" }),
    threshold: z.string(),
    sponsored: z
      .boolean()
      .openapi({ description: "The organisation's paymaster sponsors it (decided at creation, see gas-status)" }),
    deployment: z.object({
      status: z.enum(["deploying", "deployed", "failed"]),
      step: z
        .string()
        .openapi({ description: "sponsorship, account, identity-key, identity-registry, deployed, failed" }),
      failure: z.string().nullable(),
    }),
    createdAt: z.string(),
  })
  .openapi("SmartWallet");

export const SignersSchema = z
  .object({
    threshold: z.string(),
    totalWeight: z.string(),
    signers: z.array(SignerSchema.extend({ participantId: z.string().nullable() })),
  })
  .openapi("SmartWalletSigners");

export const ApprovalSchema = z
  .object({
    userOpHash: z.string(),
    transactionId: z.string(),
    kind: z.string(),
    status: z.string().openapi({ description: "The transaction request's state (PENDING_APPROVAL while waiting)" }),
    description: z.string().nullable(),
    threshold: z.string(),
    weight: z.string().openapi({ description: "The weight the signatures so far reach" }),
    signers: z.array(SignerSchema.extend({ signed: z.boolean() })),
    createdAt: z.string(),
  })
  .openapi("SmartWalletApproval");

export const GasStatusSchema = z
  .object({
    balance: z.string().openapi({ description: "The wallet's balance in wei" }),
    sponsored: z.boolean().openapi({ description: "A paymaster with enough deposit will pay the wallet's gas" }),
    zeroGas: z.boolean().openapi({ description: "The chain charges nothing for gas" }),
    paymaster: z.string().nullable(),
    paymasterDeposit: z.string().nullable().openapi({ description: "wei at the EntryPoint" }),
  })
  .openapi("SmartWalletGasStatus");

export const WalletParams = z.object({ address: AddressSchema });
export const ApprovalParams = WalletParams.extend({
  userOpHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 32-byte hex hash"),
});
