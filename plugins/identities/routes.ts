// Identity writes: onboard a wallet into the system's identity registry (its identity created when missing).
import { createRoute } from "@hono/zod-openapi";
import { encodeFunctionData, getAddress } from "viem";
import { IdentityRegistryAbi } from "../../abis/IdentityRegistry.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import type { App } from "../../host/http/env.ts";
import { jsonBody, mutationResponses } from "../../host/http/schemas.ts";
import { shortAddress } from "../../host/mutations/describe.ts";
import { submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { RegisterIdentityBodySchema } from "./write-schemas.ts";

const registerIdentity = createRoute({
  method: "post",
  path: "/api/v2/system/identities",
  tags: ["identity"],
  summary: "Register a wallet's identity (with its country) in the system's identity registry",
  description:
    "A wallet without an identity gets one, managed by the wallet and the signing wallet. A contract whose identity " +
    "was created with POST /api/v2/system/entities is registered with that identity.",
  middleware: [requirePermission("identity:manage")],
  request: { body: jsonBody(RegisterIdentityBodySchema) },
  responses: mutationResponses,
});

export function identityRoutes(app: App, ctx: PluginContext) {
  app.openapi(registerIdentity, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, (chain) => ({
      kind: "identity.register",
      description: `Register the identity of ${shortAddress(body.wallet)} (country ${body.country})`,
      to: getAddress(chain.contracts.identityRegistry),
      data: encodeFunctionData({
        abi: IdentityRegistryAbi,
        functionName: "registerWalletIdentity",
        args: [getAddress(body.wallet), body.country],
      }),
    }));
  });
}
