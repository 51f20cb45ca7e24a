// The organisation's claim issuer: the signing wallet's identity, holding a CLAIM key for that wallet.
import { createRoute, z } from "@hono/zod-openapi";
import { encodeFunctionData, getAddress } from "viem";
import { IdentityAbi } from "../../abis/Identity.ts";
import { IdentityFactoryAbi } from "../../abis/IdentityFactory.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { AddressSchema, jsonBody, mutationResponses, singleResponses } from "../../host/http/schemas.ts";
import { shortAddress } from "../../host/mutations/describe.ts";
import { requestSigner } from "../../host/mutations/submit-mutation.ts";
import { submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { addressKey, CLAIM_PURPOSE } from "./claim-signing.ts";
import { claimIssuerOf } from "./prechecks.ts";
import { SignerBodySchema } from "./write-schemas.ts";

const ECDSA_KEY_TYPE = 1n;

const ClaimIssuerSchema = z
  .object({
    wallet: AddressSchema,
    identity: AddressSchema.nullable(),
    canSignClaims: z.boolean().openapi({ description: "The wallet holds a CLAIM key of the identity" }),
  })
  .openapi("ClaimIssuer");

const getClaimIssuer = createRoute({
  method: "get",
  path: "/api/v2/system/claim-issuer",
  tags: ["identity"],
  summary: "The signing wallet's claim issuer identity (live from the chain)",
  middleware: [requirePermission("claim:issue")],
  request: { query: z.object({ accountWalletId: z.string().min(1).max(64).optional() }) },
  responses: singleResponses(ClaimIssuerSchema, "The claim issuer"),
});

const createClaimIssuer = createRoute({
  method: "post",
  path: "/api/v2/system/claim-issuer",
  tags: ["identity"],
  summary: "Make the signing wallet a claim issuer: its identity (created if missing) gets the wallet's CLAIM key",
  description: "Trust the identity for topics afterwards with POST /api/v2/system/trusted-issuers.",
  middleware: [requirePermission("claim:issue")],
  request: { body: jsonBody(SignerBodySchema, false) },
  responses: mutationResponses,
});

export function claimIssuerRoutes(app: App, ctx: PluginContext) {
  app.openapi(getClaimIssuer, async (c) => {
    const { accountWalletId } = c.req.valid("query");
    const chain = await requestChain(c, ctx);
    const wallet = await requestSigner(c, ctx, accountWalletId ? { accountWalletId } : {});
    const issuer = await claimIssuerOf(chain, wallet);
    return c.json(single(c, { wallet: getAddress(wallet), ...issuer }), 200);
  });

  app.openapi(createClaimIssuer, async (c) => {
    // An optional body: without one, the organisation's primary wallet (API keys need no walletVerification).
    return submitSystemWrite(c, ctx, c.req.valid("json"), async (chain, signer) => {
      const issuer = await claimIssuerOf(chain, signer);
      // Refused only for a new request: a retry with the first one's Idempotency-Key answers as it did.
      const precheck = async () => {
        if (issuer.canSignClaims)
          throw new ApiError("RESOURCE_ALREADY_EXISTS", {
            message: "The signing wallet is a claim issuer already",
            details: { wallet: signer, identity: issuer.identity },
          });
      };
      if (issuer.identity) {
        return {
          kind: "claimIssuer.create",
          description: `Let ${shortAddress(signer)} sign claims for identity ${shortAddress(issuer.identity)}`,
          precheck,
          to: issuer.identity,
          data: encodeFunctionData({
            abi: IdentityAbi,
            functionName: "addKey",
            args: [addressKey(signer), CLAIM_PURPOSE, ECDSA_KEY_TYPE],
          }),
        };
      }
      return {
        kind: "claimIssuer.create",
        description: `Create the claim issuer identity of ${shortAddress(signer)}`,
        precheck,
        to: getAddress(chain.contracts.identityFactory),
        data: encodeFunctionData({
          abi: IdentityFactoryAbi,
          functionName: "createClaimIssuerIdentity",
          args: [signer],
        }),
      };
    });
  });
}
