import { decodeFunctionData, getAddress, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { IdentityAbi } from "../../abis/Identity.ts";
import { claimAddition, claimSigner } from "./claim-signature.ts";

const issuerKey = privateKeyToAccount(`0x${"11".repeat(32)}`);
const claim = {
  subject: getAddress("0x00000000000000000000000000000000000000aa"),
  topicId: 42n,
  issuer: getAddress("0x00000000000000000000000000000000000000bb"),
  data: stringToHex("level-2"),
  uri: "ni:///sha-256;abc",
};

describe("a claim's signature and addition", () => {
  it("adds the claim to its subject with the Identity's addClaim, signed by the issuer's key", async () => {
    const addition = await claimAddition(issuerKey, claim);
    expect(addition.to).toBe(claim.subject);
    const call = decodeFunctionData({ abi: IdentityAbi, data: addition.data });
    expect(call.functionName).toBe("addClaim");
    const [topic, scheme, issuer, signature, data, uri] = call.args as [
      bigint,
      bigint,
      string,
      `0x${string}`,
      string,
      string,
    ];
    expect({ topic, scheme, issuer, data, uri }).toEqual({
      topic: claim.topicId,
      scheme: 1n,
      issuer: claim.issuer,
      data: claim.data,
      uri: claim.uri,
    });
    expect(await claimSigner(claim.subject, claim.topicId, claim.data, signature)).toBe(issuerKey.address);
    // Bound to what it says: the same signature over other data names another key.
    expect(await claimSigner(claim.subject, claim.topicId, stringToHex("level-3"), signature)).not.toBe(
      issuerKey.address,
    );
  });
});
