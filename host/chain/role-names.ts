// Names of the platform contracts' access-control roles, for reading a role id a revert carries.
import { type Hex, keccak256, toBytes, zeroHash } from "viem";

/** Role names as the contracts declare them (TokenRoles, SystemRoles, IdentityRoles). */
const ROLE_NAMES = [
  "SUPPLY_MANAGEMENT_ROLE",
  "CUSTODIAN_ROLE",
  "GOVERNANCE_ROLE",
  "EMERGENCY_ROLE",
  "SYSTEM_MANAGER_ROLE",
  "TOKEN_MANAGER_ROLE",
  "IDENTITY_MANAGER_ROLE",
  "CLAIM_POLICY_MANAGER_ROLE",
] as const;

const BY_ID = new Map<string, string>([
  [zeroHash, "DEFAULT_ADMIN_ROLE"],
  ...ROLE_NAMES.map((name) => [keccak256(toBytes(name)), name] as [string, string]),
]);

/** Every role the platform names, as [id, name] (e.g. to name role ids in SQL). */
export const KNOWN_ROLES: readonly (readonly [string, string])[] = [...BY_ID];

/** The role's name, or its id when the platform does not know it. */
export function roleName(roleId: Hex | string): string {
  return BY_ID.get(roleId.toLowerCase()) ?? roleId;
}
