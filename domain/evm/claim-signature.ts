// A claim as its issuer signs it and its holder identity adds it (ERC-735 as contracts/identity implements it):
// the claim routes issue claims this way, and a move of the organisation's keys to the HSM issues them again with
// the successor keys (plugins/custody/claim-reissue.ts).
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  type LocalAccount,
  parseAbi,
  parseAbiParameters,
  recoverMessageAddress,
} from "viem";

/** ERC-735 scheme 1: an ECDSA signature. */
const ECDSA_SCHEME = 1n;

const ADD_CLAIM = parseAbi([
  "function addClaim(uint256 topic, uint256 scheme, address issuer, bytes signature, bytes data, string uri) returns (bytes32)",
]);

/** What a claim says: its holder (subject), topic, issuer identity, data and evidence uri. */
export interface ClaimContent {
  subject: Address;
  topicId: bigint;
  issuer: Address;
  data: Hex;
  uri: string;
}

/** keccak256(abi.encode(subject, topic, data)): what the issuer's key signs as an Ethereum message. */
function claimDigest(subject: Address, topicId: bigint, data: Hex): Hex {
  return keccak256(encodeAbiParameters(parseAbiParameters("address, uint256, bytes"), [subject, topicId, data]));
}

/** The issuer's signature, as Identity.isClaimValid checks it. */
export function signClaim(signer: LocalAccount, subject: Address, topicId: bigint, data: Hex): Promise<Hex> {
  return signer.signMessage({ message: { raw: claimDigest(subject, topicId, data) } });
}

/** The key that signed a claim (the issuer identity holds it as a claim key while the claim is valid). */
export function claimSigner(subject: Address, topicId: bigint, data: Hex, signature: Hex): Promise<Address> {
  return recoverMessageAddress({ message: { raw: claimDigest(subject, topicId, data) }, signature });
}

/**
 * The write adding the claim to its holder identity (or changing the issuer's claim of that topic there), signed by
 * `signer`, a claim key of the issuer identity: addClaim on the subject.
 */
export async function claimAddition(signer: LocalAccount, claim: ClaimContent): Promise<{ to: Address; data: Hex }> {
  const signature = await signClaim(signer, claim.subject, claim.topicId, claim.data);
  return {
    to: claim.subject,
    data: encodeFunctionData({
      abi: ADD_CLAIM,
      functionName: "addClaim",
      args: [claim.topicId, ECDSA_SCHEME, claim.issuer, signature, claim.data, claim.uri],
    }),
  };
}
