// A transaction request as the wallet's user operation: its own nonce key (so requests of one wallet never wait on
// each other, and the EntryPoint runs each at most once), execute(to, value, data) as callData, the organisation's
// paymaster when it sponsors the wallet, gas from the pool's estimate; the signers' signatures packed in ascending
// address order (contracts/smart-wallets/README.md).
import { type Address, concat, encodeFunctionData, type Hex, hexToBigInt, keccak256, toHex } from "viem";
import {
  formatUserOperationRequest,
  getUserOperationHash,
  type RpcUserOperation,
  type UserOperation,
} from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { WeightedMultisigAccountAbi } from "../../abis/WeightedMultisigAccount.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { TransactionRequestRow } from "../../host/db/platform-types.ts";
import type { PluginContext } from "../../host/plugin.ts";

/** The request's nonce: a 192-bit key from its id, sequence 0. */
export function requestNonce(requestId: string): bigint {
  const key = hexToBigInt(keccak256(toHex(`smart-wallet-request:${requestId}`))) >> 64n;
  return key << 64n;
}

/** A syntactically valid signature for estimation (never valid for an operation's hash). */
const STUB_SIGNER = privateKeyToAccount(keccak256(toHex("smart-wallets/stub-signature")));
let stubSignature: Hex | undefined;
async function stub(count: number): Promise<Hex> {
  stubSignature ??= await STUB_SIGNER.sign({ hash: keccak256(toHex("stub")) });
  return concat(Array.from({ length: Math.max(count, 1) }, () => stubSignature!));
}

/** The signatures as the account reads them: ascending signer address, each counted once. */
export function packSignatures(signatures: Record<string, string>): Hex {
  const ordered = Object.keys(signatures).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  return ordered.length ? concat(ordered.map((signer) => signatures[signer] as Hex)) : "0x";
}

export interface BuiltOperation {
  operation: RpcUserOperation<"0.8">;
  userOpHash: Hex;
}

/** The request's operation on its chain `on`, with the pool's gas estimate. */
export async function buildUserOperation(
  ctx: PluginContext<"userOperationPool">,
  on: ServedChain,
  input: {
    request: TransactionRequestRow;
    entryPoint: Address;
    /** The paymaster that sponsors the wallet, when one does. */
    paymaster?: Address;
    /** How many signatures at most the operation will carry (for the verification gas). */
    signerCount: number;
  },
): Promise<BuiltOperation> {
  const { request, entryPoint, paymaster } = input;
  const pool = ctx.userOperationPool;
  const fees = await on.client.estimateFeesPerGas();
  const draft: UserOperation<"0.8"> = {
    sender: request.fromAddress as Address,
    nonce: requestNonce(request.id),
    callData: encodeFunctionData({
      abi: WeightedMultisigAccountAbi,
      functionName: "execute",
      args: [request.toAddress as Address, BigInt(request.value), request.data as Hex],
    }),
    callGasLimit: 0n,
    verificationGasLimit: 0n,
    preVerificationGas: 0n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    ...(paymaster
      ? { paymaster, paymasterData: "0x", paymasterVerificationGasLimit: 0n, paymasterPostOpGasLimit: 0n }
      : {}),
    signature: await stub(input.signerCount),
  };
  const gas = await pool.estimate(on.chainId, formatUserOperationRequest(draft) as RpcUserOperation<"0.8">);
  const operation: UserOperation<"0.8"> = {
    ...draft,
    callGasLimit: BigInt(gas.callGasLimit),
    verificationGasLimit: BigInt(gas.verificationGasLimit),
    preVerificationGas: BigInt(gas.preVerificationGas),
    ...(paymaster
      ? {
          paymasterVerificationGasLimit: BigInt(gas.paymasterVerificationGasLimit ?? "0x0"),
          paymasterPostOpGasLimit: BigInt(gas.paymasterPostOpGasLimit ?? "0x0"),
        }
      : {}),
    signature: "0x",
  };
  const userOpHash = getUserOperationHash({
    chainId: on.chainId,
    entryPointAddress: entryPoint,
    entryPointVersion: "0.8",
    userOperation: operation,
  });
  return { operation: formatUserOperationRequest(operation) as RpcUserOperation<"0.8">, userOpHash };
}
