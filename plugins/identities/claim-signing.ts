// What a claim issuer signs and how claims are named on chain (ERC-735 as contracts/identity implements it).
import {
  type Address,
  encodeAbiParameters,
  type Hex,
  keccak256,
  type LocalAccount,
  parseAbiParameters,
  stringToHex,
  toHex,
} from "viem";

/** ERC-735 scheme 1: an ECDSA signature. */
export const ECDSA_SCHEME = 1n;
/** ERC-734 key purpose of a claim signer. */
export const CLAIM_PURPOSE = 3n;

/** topicId = uint256(keccak256(bytes(name))), as TopicSchemeRegistry computes it. */
export function topicIdOf(name: string): bigint {
  return BigInt(keccak256(stringToHex(name)));
}

/** The bytes32 form of a topic id (the coverage route's `id`). */
export function topicBytes32(topicId: bigint): Hex {
  return toHex(topicId, { size: 32 });
}

/** claimId = keccak256(abi.encode(issuer, topic)): one claim per issuer and topic on an identity. */
export function claimIdOf(issuer: Address, topicId: bigint): Hex {
  return keccak256(encodeAbiParameters(parseAbiParameters("address, uint256"), [issuer, topicId]));
}

/** The ERC-734 key of an ECDSA address. */
export function addressKey(account: Address): Hex {
  return keccak256(encodeAbiParameters(parseAbiParameters("address"), [account]));
}

/** The issuer's signature: keccak256(abi.encode(subject, topic, data)) signed as an Ethereum message (Identity.isClaimValid). */
export function signClaim(signer: LocalAccount, subject: Address, topicId: bigint, data: Hex): Promise<Hex> {
  const digest = keccak256(
    encodeAbiParameters(parseAbiParameters("address, uint256, bytes"), [subject, topicId, data]),
  );
  return signer.signMessage({ message: { raw: digest } });
}
