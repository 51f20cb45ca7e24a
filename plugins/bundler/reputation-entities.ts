// The ERC-7562 entities an accepted operation names, with the stake its validation reported: its paymaster and its
// factory (not EIP-7702's marker, which deploys nothing). Aggregators never get here: validation refuses them
// (-32506).
import { isEip7702Factory } from "./eip7702.ts";
import type { ReputationEntity } from "./reputation.ts";
import type { ValidationResult } from "./simulation.ts";
import type { RpcUserOperation } from "./user-operation.ts";
import { isStaked } from "./validation-rules.ts";

export function reputationEntities(
  op: Pick<RpcUserOperation, "paymaster" | "factory">,
  validation: Pick<ValidationResult, "paymasterInfo" | "factoryInfo">,
): ReputationEntity[] {
  const entities: ReputationEntity[] = [];
  if (op.paymaster)
    entities.push({
      role: "paymaster",
      address: op.paymaster.toLowerCase(),
      staked: isStaked(validation.paymasterInfo),
    });
  if (op.factory && !isEip7702Factory(op.factory))
    entities.push({ role: "factory", address: op.factory.toLowerCase(), staked: isStaked(validation.factoryInfo) });
  return entities;
}
