// ERC-7562's storage-access rules (STO-010 … STO-033) decided on the storage accesses of a traced validation
// (storage-trace.ts): which slot of which contract each entity's validation read or wrote, and the keccak inputs that
// say which slots are associated with an address. Pure: no chain here.
import { type Hex, keccak256 } from "viem";

/** Whose validation made an access: the account's (validateUserOp), the factory's or the paymaster's. */
export type EntityRole = "account" | "factory" | "paymaster";

export interface StorageAccess {
  role: EntityRole;
  /** The storage's contract (lowercase; a delegate call's is its caller's). */
  address: string;
  slot: Hex;
  write: boolean;
}

/** The operation's entities (lowercase addresses) and what the rules need to know of them. */
export interface StorageEntities {
  /** Its storage (deposits, nonces) is reached only through its own methods: not judged by these rules. */
  entryPoint: string;
  sender: string;
  factory?: string;
  paymaster?: string;
  /** The sender is deployed before the operation (no initCode, or an EIP-7702 EOA). */
  senderExists: boolean;
  factoryStaked: boolean;
  paymasterStaked: boolean;
}

export type StorageRule = "STO-021" | "STO-022" | "STO-031" | "STO-032" | "STO-033";

export interface StorageViolation {
  rule: StorageRule;
  role: EntityRole;
  address: string;
  slot: Hex;
  write: boolean;
  reason: string;
}

/** A slot keccak(A || x) + n is associated with A for n up to 128 (a mapping's struct value). */
const MAX_ASSOCIATED_OFFSET = 128n;
const ADDRESS_MASK = (1n << 160n) - 1n;

/**
 * The keccak results of the validation keyed to the address their input began with: `inputs` are the keccak inputs
 * whose first word is an address (hex, the whole input).
 */
export function keccakOwners(inputs: Hex[]): Map<bigint, string> {
  const owners = new Map<bigint, string>();
  for (const input of inputs) {
    if (input.length < 66) continue;
    const first = BigInt(input.slice(0, 66));
    if (first > ADDRESS_MASK) continue;
    owners.set(BigInt(keccak256(input)), `0x${first.toString(16).padStart(40, "0")}`);
  }
  return owners;
}

/** Whether `slot` is associated with `owner` (ERC-7562): the slot is the address itself, or keccak(owner||x)+n. */
export function isAssociated(slot: Hex, owner: string | undefined, owners: Map<bigint, string>): boolean {
  if (!owner) return false;
  const value = BigInt(slot);
  if (value === BigInt(owner)) return true;
  for (let n = 0n; n <= MAX_ASSOCIATED_OFFSET && n <= value; n++) if (owners.get(value - n) === owner) return true;
  return false;
}

/** The role's entity address and whether it is staked (the account's stake is not one of the exceptions). */
function entityOf(role: EntityRole, entities: StorageEntities): { address?: string; staked: boolean } {
  if (role === "factory") return { address: entities.factory, staked: entities.factoryStaked };
  if (role === "paymaster") return { address: entities.paymaster, staked: entities.paymasterStaked };
  return { address: entities.sender, staked: false };
}

/** Why one access breaks the rules, or undefined when a rule allows it. */
function violationOf(
  access: StorageAccess,
  entities: StorageEntities,
  owners: Map<bigint, string>,
): Omit<StorageViolation, keyof StorageAccess> | undefined {
  const { role, address, slot, write } = access;
  // [STO-010]: the account's own storage, always; the EntryPoint's is its own bookkeeping (e.g. depositTo).
  if (address === entities.sender || address === entities.entryPoint) return undefined;
  const self = entityOf(role, entities);
  // [STO-021] / [STO-022]: storage associated with the account, in any contract — an entity's own included, as the
  // reference bundler reads the rule (a paymaster's `mapping(sender => …)`, e.g. which wallets it sponsors) — once
  // the account exists; while a factory deploys it, the account's and the factory's access need the factory staked,
  // a paymaster's its own stake.
  if (isAssociated(slot, entities.sender, owners)) {
    if (entities.senderExists || (role === "paymaster" ? self.staked : entities.factoryStaked)) return undefined;
    return role === "paymaster"
      ? { rule: "STO-022", reason: "an unstaked paymaster may not access an undeployed account's associated storage" }
      : { rule: "STO-022", reason: "storage associated with an account not yet deployed needs a staked factory" };
  }
  const isEntity = address === entities.factory || address === entities.paymaster;
  if (isEntity) {
    // [STO-031]: an entity's own storage, by that entity only, and only staked.
    if (address === self.address && self.staked) return undefined;
    return address === self.address
      ? { rule: "STO-031", reason: `an unstaked ${role} may not access its own storage` }
      : { rule: "STO-031", reason: `the ${role} may not access another entity's storage` };
  }
  if (role !== "account") {
    // [STO-032]: a staked entity's associated storage; [STO-033]: a staked entity reads any other storage.
    if (isAssociated(slot, self.address, owners))
      return self.staked
        ? undefined
        : { rule: "STO-032", reason: `an unstaked ${role} may not access storage associated with itself` };
    if (self.staked && !write) return undefined;
    return self.staked
      ? { rule: "STO-033", reason: `a staked ${role} may only read storage not associated with it` }
      : { rule: "STO-033", reason: `an unstaked ${role} may not access storage not associated with the account` };
  }
  return { rule: "STO-021", reason: "the account may only access its own storage and storage associated with it" };
}

/** The first access ERC-7562's storage rules refuse, if any. */
export function storageViolation(
  accesses: StorageAccess[],
  entities: StorageEntities,
  owners: Map<bigint, string>,
): StorageViolation | undefined {
  for (const access of accesses) {
    const found = violationOf(access, entities, owners);
    if (found) return { ...access, ...found };
  }
  return undefined;
}

/**
 * The contracts (lowercase, sorted) whose storage the validation accessed, the sender's and the EntryPoint's aside:
 * STO-041 holds the operation back while one of them is the sender of another live operation.
 */
export function foreignStorage(accesses: StorageAccess[], entities: Pick<StorageEntities, "entryPoint" | "sender">) {
  const own = new Set([entities.sender, entities.entryPoint]);
  return [...new Set(accesses.map((access) => access.address).filter((address) => !own.has(address)))].sort();
}
