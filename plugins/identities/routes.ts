// Identity writes: onboard a wallet into the system's identity registry (its identity created when missing).
import { createRoute, z } from "@hono/zod-openapi";
import { type Address, encodeFunctionData, getAddress } from "viem";
import { IdentityRegistryAbi } from "../../abis/IdentityRegistry.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite } from "../../host/auth/wallet-verification.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import type { App } from "../../host/http/env.ts";
import {
  AddressSchema,
  mutationResponses,
  WalletSelectionFields,
  WalletVerificationSchema,
} from "../../host/http/schemas.ts";
import { submitChainWrite, walletSelectionOf } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";

export const RegisterIdentityBodySchema = z
  .object({
    wallet: AddressSchema,
    country: z.number().int().min(0).max(999).openapi({ description: "ISO 3166-1 numeric country code" }),
    walletVerification: WalletVerificationSchema.optional(),
    ...WalletSelectionFields,
  })
  .strict()
  .openapi("RegisterIdentityRequest");

const registerIdentity = createRoute({
  method: "post",
  path: "/api/v2/system/identities",
  tags: ["identity"],
  summary: "Register a wallet's identity (with its country) in the system's identity registry",
  middleware: [requirePermission("identity:manage")],
  request: { body: { required: true, content: { "application/json": { schema: RegisterIdentityBodySchema } } } },
  responses: mutationResponses,
});

export function identityRoutes(app: App, ctx: PluginContext) {
  app.openapi(registerIdentity, async (c) => {
    const body = c.req.valid("json");
    const chain = await requestChain(c, ctx.db.platform, [ctx.chain.chainId]);
    await verifyWalletForWrite(c, ctx.db.platform, body.walletVerification);
    return submitChainWrite(c, ctx, {
      chainId: chain.chainId,
      kind: "identity.register",
      to: getAddress(chain.contracts.identityRegistry) as Address,
      data: encodeFunctionData({
        abi: IdentityRegistryAbi,
        functionName: "registerWalletIdentity",
        args: [getAddress(body.wallet), body.country],
      }),
      walletSelection: walletSelectionOf(body),
    });
  });
}
