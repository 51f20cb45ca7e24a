// The ERC-734 key of an ECDSA address, as the identity contracts compute it (Identity.addressKey):
// keccak256(abi.encode(address)).
import { type Address, encodeAbiParameters, getAddress, type Hex, keccak256 } from "viem";

export const addressKey = (address: Address): Hex =>
  keccak256(encodeAbiParameters([{ type: "address" }], [getAddress(address)]));
