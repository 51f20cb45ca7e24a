// A UserOperation as ERC-7769 clients send it (v0.7/v0.8 JSON: hex quantities, factory and paymaster fields apart),
// and what the bundler derives from it: viem's UserOperation, the PackedUserOperation handleOps takes, its hash.
import { z } from "@hono/zod-openapi";
import { type Address, type Hex, hexToBigInt, size, slice, toHex } from "viem";
import {
  formatUserOperation,
  getUserOperationHash,
  type PackedUserOperation,
  toPackedUserOperation,
  type UserOperation,
} from "viem/account-abstraction";
import type { StoredAuthorization } from "../../host/chain/authorizations.ts";
import { EIP7702_FACTORY, Eip7702AuthSchema, isEip7702Factory, toAuthorization } from "./eip7702.ts";
import type { ServedEntryPoint } from "./entry-points.ts";

const quantity = z
  .string()
  .regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/, "a hex quantity (0x-prefixed, no leading zeros)");
const bytes = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, "0x-prefixed hex bytes");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "an address");
const gas = quantity.refine((v) => BigInt(v) < 2n ** 128n, "must fit in 128 bits");

/** The fields of an operation to send: everything required except the optional factory and paymaster parts. */
export const RpcUserOperationSchema = z
  .object({
    sender: address,
    nonce: quantity,
    // An EIP-7702 sender's initCode marker: 0x7702 (as viem sends it) or padded to 20 bytes (eip7702.ts).
    factory: address.or(z.string().regex(/^0x7702$/, "0x7702")).nullish(),
    factoryData: bytes.nullish(),
    callData: bytes,
    callGasLimit: gas,
    verificationGasLimit: gas,
    preVerificationGas: quantity,
    maxFeePerGas: gas,
    maxPriorityFeePerGas: gas,
    paymaster: address.nullish(),
    paymasterVerificationGasLimit: gas.nullish(),
    paymasterPostOpGasLimit: gas.nullish(),
    paymasterData: bytes.nullish(),
    signature: bytes,
    /** EntryPoint v0.8: the sender's EIP-7702 authorisation, which its bundle's type-4 transaction carries. */
    eip7702Auth: Eip7702AuthSchema.nullish(),
  })
  .openapi("RpcUserOperation");
export type RpcUserOperation = z.infer<typeof RpcUserOperationSchema>;

/** For estimation the gas fields may be left out (taken as zero) and the signature may be a stub. */
export const EstimableUserOperationSchema = RpcUserOperationSchema.extend({
  callGasLimit: gas.default("0x0"),
  verificationGasLimit: gas.default("0x0"),
  preVerificationGas: quantity.default("0x0"),
  maxFeePerGas: gas.default("0x0"),
  maxPriorityFeePerGas: gas.default("0x0"),
});

/** The operation with bigint quantities (viem's shape); the factory and paymaster parts only when present. */
export function toUserOperation(op: RpcUserOperation): UserOperation<"0.8"> {
  const { eip7702Auth, ...fields } = op;
  const formatted = formatUserOperation(fields as never) as UserOperation<"0.8">;
  if (!op.factory) {
    formatted.factory = undefined;
    formatted.factoryData = undefined;
  } else if (isEip7702Factory(op.factory)) formatted.factory = EIP7702_FACTORY; // the marker as the EntryPoint reads it
  if (eip7702Auth) formatted.authorization = toAuthorization(eip7702Auth);
  if (!op.paymaster) {
    formatted.paymaster = undefined;
    formatted.paymasterData = undefined;
    formatted.paymasterVerificationGasLimit = undefined;
    formatted.paymasterPostOpGasLimit = undefined;
  }
  return formatted;
}

/** The operation's EIP-7702 authorisation (toUserOperation made it from `eip7702Auth`), if it carries one. */
export const authorizationOf = (op: UserOperation<"0.8">) => op.authorization as StoredAuthorization | undefined;

export const packed = (op: UserOperation<"0.8">): PackedUserOperation => toPackedUserOperation(op);

/** The operation's hash under its EntryPoint's rule: v0.8 the EIP-712 typed hash, v0.7 keccak(abi.encode(keccak(packed
 * fields), entryPoint, chainId)). Both releases take the same PackedUserOperation. With the 7702 marker, v0.8 hashes
 * `delegate || factoryData` in place of the initCode, the delegate being the implementation at the sender when the
 * operation runs (its authorisation's, else the chain's: `delegate`). */
export function userOpHash(
  op: UserOperation<"0.8">,
  chainId: number,
  entryPoint: ServedEntryPoint,
  delegate?: Address,
) {
  // viem hashes the marker with the operation's authorisation's address: the delegate stands in for a missing one.
  const withDelegate =
    delegate && !op.authorization
      ? { ...op, authorization: { address: delegate, chainId: 0, nonce: 0, r: "0x0", s: "0x0", yParity: 0 } }
      : op;
  return getUserOperationHash({
    chainId,
    entryPointAddress: entryPoint.address,
    entryPointVersion: entryPoint.version,
    userOperation: withDelegate as never,
  }) as Hex;
}

/** A PackedUserOperation (as handleOps carries it) back in ERC-7769 JSON: the gas words and the factory and paymaster
 * parts split again. */
export function unpacked(op: PackedUserOperation): RpcUserOperation {
  const high = (word: Hex) => toHex(hexToBigInt(slice(word, 0, 16)));
  const low = (word: Hex) => toHex(hexToBigInt(slice(word, 16, 32)));
  const withFactory = size(op.initCode ?? "0x") >= 20;
  const withPaymaster = size(op.paymasterAndData ?? "0x") >= 52;
  return {
    sender: op.sender,
    nonce: toHex(op.nonce),
    ...(withFactory ? { factory: slice(op.initCode!, 0, 20), factoryData: slice(op.initCode!, 20) } : {}),
    callData: op.callData,
    verificationGasLimit: high(op.accountGasLimits),
    callGasLimit: low(op.accountGasLimits),
    preVerificationGas: toHex(op.preVerificationGas),
    maxPriorityFeePerGas: high(op.gasFees),
    maxFeePerGas: low(op.gasFees),
    ...(withPaymaster
      ? {
          paymaster: slice(op.paymasterAndData!, 0, 20),
          paymasterVerificationGasLimit: toHex(hexToBigInt(slice(op.paymasterAndData!, 20, 36))),
          paymasterPostOpGasLimit: toHex(hexToBigInt(slice(op.paymasterAndData!, 36, 52))),
          paymasterData: slice(op.paymasterAndData!, 52),
        }
      : {}),
    signature: op.signature,
  };
}

/** The ERC-7769 JSON of a stored operation: the fields the client sent, the absent parts as null. */
export function rpcForm(op: Record<string, unknown>): Record<string, unknown> {
  return {
    factory: null,
    factoryData: null,
    paymaster: null,
    paymasterVerificationGasLimit: null,
    paymasterPostOpGasLimit: null,
    paymasterData: null,
    ...op,
  };
}
