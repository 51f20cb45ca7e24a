// What a claim issuer signs and how claims are named on chain (ERC-735 as contracts/identity implements it).
import { type Address, encodeAbiParameters, type Hex, keccak256, parseAbiParameters, stringToHex, toHex } from "viem";

export { signClaim } from "../../domain/evm/claim-signature.ts";

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
