// The hook between a traced validation (simulation.ts) and ERC-7562's storage rules: who the operation's entities are,
// whether they are staked (the simulation's StakeInfo), and the refusal (-32502) naming the broken rule.
import { type Address, type Hex, slice } from "viem";
import type { PackedUserOperation } from "viem/account-abstraction";
import { isEip7702Factory } from "./eip7702.ts";
import { senderCreatorOf } from "./opcode-rules.ts";
import { rpcError } from "./rpc-error.ts";
import { foreignStorage, keccakOwners, type StorageEntities, storageViolation } from "./storage-rules.ts";
import type { StorageTrace, ValidationCallees } from "./storage-trace.ts";
import { isStaked, type StakeInfo } from "./validation-rules.ts";

const addressIn = (field: Hex): string | undefined =>
  field.length >= 42 ? slice(field, 0, 20).toLowerCase() : undefined;

export function validationCallees(entryPoint: Address, op: PackedUserOperation): ValidationCallees {
  return {
    senderCreator: senderCreatorOf(entryPoint),
    sender: op.sender.toLowerCase(),
    paymaster: addressIn(op.paymasterAndData),
  };
}

/** The factory the operation's initCode names to deploy its sender (none for a deployed or EIP-7702 sender). */
export function deployingFactory(op: PackedUserOperation): string | undefined {
  const factory = addressIn(op.initCode);
  return factory !== undefined && !isEip7702Factory(factory) ? factory : undefined;
}

/**
 * Throws the ERC-7769 refusal for the first storage access ERC-7562 forbids; else answers the contracts whose storage
 * the validation accessed, the sender's and the EntryPoint's aside (STO-041 is judged against the mempool).
 */
export function assertStorageRules(
  trace: StorageTrace,
  entryPoint: Address,
  op: PackedUserOperation,
  stakes: { factoryInfo: StakeInfo; paymasterInfo: StakeInfo },
): string[] {
  const factory = deployingFactory(op);
  const deploys = factory !== undefined;
  const entities: StorageEntities = {
    entryPoint: entryPoint.toLowerCase(),
    sender: op.sender.toLowerCase(),
    factory,
    paymaster: addressIn(op.paymasterAndData),
    senderExists: !deploys,
    factoryStaked: deploys && isStaked(stakes.factoryInfo),
    paymasterStaked: isStaked(stakes.paymasterInfo),
  };
  const violation = storageViolation(trace.accesses, entities, keccakOwners(trace.keccakInputs));
  if (!violation) return foreignStorage(trace.accesses, entities);
  const { rule, role, address, slot, write, reason } = violation;
  throw rpcError(
    "BUNDLER_STORAGE_ACCESS_BANNED",
    `[${rule}] The ${role}'s validation ${write ? "wrote" : "read"} slot ${slot} of ${address}: ${reason} (ERC-7562)`,
    { rule, entity: role, address, slot, write },
  );
}
