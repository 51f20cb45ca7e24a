// What an EVM address in a request must be: 0x and 40 hex digits, and when the digits mix cases, a valid EIP-55
// checksum (a mistyped character in a checksummed address is caught instead of sending funds to it).
import { isAddress } from "viem";

export const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Whether `value` looks like an address at all (0x and 40 hex digits, any case). */
export const looksLikeAddress = (value: string): boolean => HEX_ADDRESS.test(value);

/** Whether a 0x-and-40-hex address passes EIP-55: all-lowercase and all-uppercase digits carry no checksum. */
export function hasValidChecksum(value: string): boolean {
  const digits = value.slice(2);
  return digits === digits.toLowerCase() || digits === digits.toUpperCase() || isAddress(value, { strict: true });
}

/** A zod refinement: anything that is not an address passes (its format check answers); an address needs EIP-55. */
export const checksumIfAddress = (value: string): boolean => !looksLikeAddress(value) || hasValidChecksum(value);

export const ADDRESS_FORMAT_MESSAGE = "must be a 0x-prefixed 20-byte hex address";
export const ADDRESS_CHECKSUM_MESSAGE =
  "has a wrong EIP-55 checksum (mixed-case digits must be checksummed; all-lowercase is accepted)";
