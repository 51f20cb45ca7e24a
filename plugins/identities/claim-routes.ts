// Claims as the organisation's claim issuer: issue (or change) a claim on an identity, revoke it, remove it.
import { createRoute } from "@hono/zod-openapi";
import { encodeFunctionData, type Hex, isAddressEqual } from "viem";
import { IdentityAbi } from "../../abis/Identity.ts";
import { claimAddition } from "../../domain/evm/claim-signature.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { jsonBody, mutationResponses } from "../../host/http/schemas.ts";
import { shortAddress } from "../../host/mutations/describe.ts";
import { submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { encodeClaimValues } from "./claim-data.ts";
import { claimEvidenceUri } from "./claim-evidence.ts";
import { claimIdOf, topicIdOf } from "./claim-signing.ts";
import { subjectIdentity } from "./identity-lookup.ts";
import { attachedClaim, requireClaimIssuer, topicScheme } from "./prechecks.ts";
import { topicNameContext } from "./topic-names.ts";
import { IssueClaimBodySchema, RemoveClaimBodySchema, RevokeClaimBodySchema } from "./write-schemas.ts";

const issueClaim = createRoute({
  method: "post",
  path: "/api/v2/system/identity-claims",
  tags: ["identity"],
  summary: "Issue a claim on an identity, signed by the signing wallet for its claim issuer identity",
  description:
    "The topic must be a registered topic scheme. A second claim of the same issuer and topic changes the first " +
    "(ClaimChanged). The signer needs a management or claim key on the subject identity (onboarding gives it one). " +
    "documentSha256 names a KYC document of the subject's participant as the evidence (404 KYC_DOCUMENT_NOT_FOUND " +
    "when the subject has none with that digest); the claim's uri is then its RFC 6920 name.",
  middleware: [requirePermission("claim:issue")],
  request: { body: jsonBody(IssueClaimBodySchema) },
  responses: mutationResponses,
});

const revokeClaim = createRoute({
  method: "post",
  path: "/api/v2/system/identity-claim-revocations",
  tags: ["identity"],
  summary: "Revoke a claim your claim issuer issued: it stays attached but no longer verifies",
  middleware: [requirePermission("claim:issue")],
  request: { body: jsonBody(RevokeClaimBodySchema) },
  responses: mutationResponses,
});

const removeClaim = createRoute({
  method: "post",
  path: "/api/v2/system/identity-claim-removals",
  tags: ["identity"],
  summary: "Remove a claim from an identity the signing wallet manages",
  middleware: [requirePermission("claim:issue")],
  request: { body: jsonBody(RemoveClaimBodySchema) },
  responses: mutationResponses,
});

/** "the kyc claim", or "claim 0x1234…abcd" when named by id. */
const claimNamed = (body: { topic?: string; claimId?: string }) =>
  body.topic ? `the ${body.topic} claim` : `claim ${body.claimId?.slice(0, 6)}…${body.claimId?.slice(-4)}`;

export function claimRoutes(app: App, ctx: PluginContext<"custody" | "kycDocuments">) {
  app.openapi(issueClaim, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, async (chain, signer) => {
      const subject = await subjectIdentity(chain, body);
      const uri = body.documentSha256
        ? await claimEvidenceUri(c, ctx, chain, subject, body.documentSha256)
        : (body.uri ?? "");
      const { topicId, signature: scheme } = await topicScheme(chain, body.topic);
      const data = body.values ? encodeClaimValues(scheme, body.values) : ((body.data ?? "0x") as Hex);
      const issuer = await requireClaimIssuer(chain, signer);
      const account = await ctx.custody.signer(c.get("principal").organizationId, signer, {
        caller: "identities:claim-signature",
      });
      return {
        kind: "claim.issue",
        description: `Issue the ${body.topic} claim to identity ${shortAddress(subject)}`,
        resultContext: { topicName: body.topic },
        ...(await claimAddition(account, { subject, topicId, issuer, data, uri })),
      };
    });
  });

  app.openapi(revokeClaim, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, async (chain, signer) => {
      const subject = await subjectIdentity(chain, body);
      const issuer = await requireClaimIssuer(chain, signer);
      const claimId = (body.claimId as Hex | undefined) ?? claimIdOf(issuer, topicIdOf(body.topic as string));
      const claim = await attachedClaim(chain, subject, claimId);
      const resultContext = await topicNameContext(chain.ledger, chain.systemAddress, claim.topic, body.topic);
      if (!isAddressEqual(claim.issuer, issuer)) {
        throw new ApiError("CLAIM_NOT_FOUND", {
          message: "Your claim issuer did not issue this claim",
          details: { identityAddress: subject, claimId, issuer: claim.issuer },
        });
      }
      return {
        kind: "claim.revoke",
        description: `Revoke ${claimNamed(body)} of identity ${shortAddress(subject)}`,
        resultContext,
        to: issuer,
        data: encodeFunctionData({ abi: IdentityAbi, functionName: "revokeClaim", args: [claimId, subject] }),
      };
    });
  });

  app.openapi(removeClaim, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, async (chain, signer) => {
      const subject = await subjectIdentity(chain, body);
      const claimId =
        (body.claimId as Hex | undefined) ??
        claimIdOf(await requireClaimIssuer(chain, signer), topicIdOf(body.topic as string));
      const { topic } = await attachedClaim(chain, subject, claimId);
      return {
        kind: "claim.remove",
        description: `Remove ${claimNamed(body)} from identity ${shortAddress(subject)}`,
        resultContext: await topicNameContext(chain.ledger, chain.systemAddress, topic, body.topic),
        to: subject,
        data: encodeFunctionData({ abi: IdentityAbi, functionName: "removeClaim", args: [claimId] }),
      };
    });
  });
}
