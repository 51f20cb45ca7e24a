// What a plugin that sends user operations (e.g. smart wallets) asks of the plugin that bundles them (the bundler),
// through the host: plugins never import each other.
import type { Address, Hex, TransactionReceipt } from "viem";
import type { RpcUserOperation } from "viem/account-abstraction";

export type PoolUserOperation = RpcUserOperation<"0.8">;

/** The gas fields an estimate fills in (hex quantities, as eth_estimateUserOperationGas answers). */
export interface UserOperationGas {
  preVerificationGas: Hex;
  verificationGasLimit: Hex;
  callGasLimit: Hex;
  paymasterVerificationGasLimit?: Hex;
  paymasterPostOpGasLimit?: Hex;
}

/** A mined operation: its UserOperationEvent, the bundle's receipt and the logs its own execution emitted. */
export interface UserOperationMined {
  state: "mined";
  success: boolean;
  actualGasCost: bigint;
  paymaster: Address;
  /** The revert data of a failed execution (UserOperationRevertReason), "0x" otherwise. */
  reason: Hex;
  receipt: TransactionReceipt;
  /** Only this operation's logs (a bundle carries several operations). */
  logs: TransactionReceipt["logs"];
}

/** Where an operation the pool accepted stands: pending (waiting or in a bundle not yet mined), mined, or dropped. */
export type UserOperationOutcome = { state: "pending" } | { state: "dropped"; reason: string } | UserOperationMined;

/** The pool refused the operation: the ERC-7769 code (-32500… for validation, -32602 for bad params) and why. */
export class UserOperationRejected extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface UserOperationPool {
  /** Validates (by simulation) and queues a signed operation for the organisation's bundles on a chain; its hash. */
  send(chainId: number, organizationId: string, operation: PoolUserOperation): Promise<Hex>;
  /** Gas limits on a chain for an operation whose signature may be a stub of the right length. */
  estimate(chainId: number, operation: PoolUserOperation): Promise<UserOperationGas>;
  /** Where the operation stands (on whichever chain the pool accepted it); null for one it never accepted. */
  outcome(userOpHash: Hex): Promise<UserOperationOutcome | null>;
}
