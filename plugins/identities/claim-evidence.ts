// A claim's evidence: a KYC document (the kyc-documents plugin's, asked through the kycDocuments capability) named
// by its sha256, which must belong to the participant whose identity is the claim's subject. The claim carries it as
// its uri, in RFC 6920's form (`ni:///sha-256;<base64url digest>`), so anyone holding the file can match it.
import type { Context } from "hono";
import { type Address, isAddressEqual } from "viem";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { AppEnv } from "../../host/http/env.ts";
import { findParticipant } from "../../host/http/find-participant.ts";
import type { PluginContext } from "../../host/plugin.ts";

/** `0x<64 hex>` → `ni:///sha-256;<base64url>` (RFC 6920, Naming Things with Hashes). */
export function documentUri(sha256: string): string {
  return `ni:///sha-256;${Buffer.from(sha256.slice(2), "hex").toString("base64url")}`;
}

/** The claim's uri for the document; KYC_DOCUMENT_NOT_FOUND unless the subject's participant holds it. */
export async function claimEvidenceUri(
  c: Context<AppEnv>,
  ctx: PluginContext<"kycDocuments">,
  chain: RequestChain,
  subject: Address,
  sha256: string,
): Promise<string> {
  const { organizationId } = c.get("principal");
  for (const participantId of await ctx.kycDocuments.holders(organizationId, sha256)) {
    const participant = await findParticipant(c, ctx.config.INDEX_VIEWS_SCHEMA, chain, participantId).catch(
      () => undefined, // a participant the chain no longer knows (a token of another system) holds no evidence here
    );
    const identity = participant?.identityAddress;
    if (identity && isAddressEqual(identity as Address, subject)) return documentUri(sha256);
  }
  throw new ApiError("KYC_DOCUMENT_NOT_FOUND", {
    message: `The claim's subject (identity ${subject}) has no KYC document with sha256 ${sha256} in your organisation`,
    details: { documentSha256: sha256, identityAddress: subject },
  });
}
