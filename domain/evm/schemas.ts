// zod schemas of EVM values in requests, shared by the domain's parameter tables and every plugin's route schemas.
// Plain zod: `.meta()` carries the OpenAPI annotations (zod-to-openapi reads zod's registry).
import { z } from "zod";
import { ADDRESS_CHECKSUM_MESSAGE, ADDRESS_FORMAT_MESSAGE, checksumIfAddress, HEX_ADDRESS } from "./address.ts";

/** An EVM address: mixed-case digits must carry a valid EIP-55 checksum (domain/evm/address.ts). */
export const AddressSchema = z
  .string()
  .regex(HEX_ADDRESS, ADDRESS_FORMAT_MESSAGE)
  .refine(checksumIfAddress, ADDRESS_CHECKSUM_MESSAGE) // refinements run after a failed regex too
  .meta({ example: "0x5FbDB2315678afecb367f032d93F642f64180aa3" });

export const UintStringSchema = z
  .string()
  .regex(/^\d{1,78}$/, "must be a non-negative integer in raw units, as a decimal string")
  .refine((v) => !/^\d{1,78}$/.test(v) || BigInt(v) < 2n ** 256n, "must fit in uint256"); // zod runs refinements after a failed regex too
