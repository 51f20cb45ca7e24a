// The roles-and-permissions table, held as data: which organisation roles grant which permission.
// The spec's table names the roles; a permission is what one middleware checks per route.
export const ROLES = [
  "owner",
  "admin",
  "systemManager",
  "tokenManager",
  "supplyManager",
  "identityManager",
  "claimIssuer",
  "auditor",
  "gasManager",
  "member",
] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  "token:read": ROLES,
  "token:create": ["owner", "admin", "tokenManager"],
  "token:mint": ["owner", "admin", "tokenManager", "supplyManager"],
  "token:burn": ["owner", "admin", "tokenManager", "supplyManager"],
  /** Moving the organisation's own holdings (transfers from its signer wallet, relaying a holder's permit). */
  "token:transfer": ["owner", "admin", "tokenManager", "supplyManager"],
  /** Custodian operations: forced transfers, address and partial freezes. */
  "token:custody": ["owner", "admin", "tokenManager"],
  /** Emergency: pause and unpause. */
  "token:pause": ["owner", "admin", "tokenManager"],
  "token:governance": ["owner", "admin", "tokenManager"],
  "tokenTemplate:manage": ["owner", "admin", "tokenManager"],
  "transaction:read": ROLES,
  /** Cancelling another person's queued chain write (anyone may cancel their own). */
  "transaction:cancel-others": ["owner", "admin"],
  "session:revoke-others": ["owner", "admin"],
  /** Your own API keys (create, list, revoke); a key never has more scope or a later expiry than its creator's key. */
  "apiKey:manage": ROLES,
  /** Every API key of the organisation: list and revoke other members' keys. */
  "apiKey:manage-others": ["owner", "admin"],
  /** The organisation's members with their roles. */
  "organization:members:read": ["owner", "admin"],
  /** Replacing a member's roles (owner excepted, see organization:owners:manage). */
  "organization:members:manage": ["owner", "admin"],
  /** Granting or removing the owner role. */
  "organization:owners:manage": ["owner"],
  "participant:act-for-others": ["owner", "admin"],
  /** The participant directory: everyone sees assets and addons; people, the organisation and claim issuers need userSearch. */
  "participant:read": ROLES,
  userSearch: ["owner", "admin", "identityManager", "claimIssuer", "systemManager"],
  "identity:read": ["identityManager", "systemManager", "claimIssuer"],
  "identity:manage": ["owner", "admin", "identityManager"],
  /** Issue, change, remove and revoke claims as the organisation's claim issuer. */
  "claim:issue": ["owner", "admin", "claimIssuer"],
  /** Trusted issuers and topic schemes (the chain's CLAIM_POLICY_MANAGER_ROLE). */
  "claimPolicy:manage": ["owner", "admin", "systemManager"],
  /** The system's statistics: counts only, no identity or claim in person. */
  "systemStats:read": ROLES,
  /** Reaching an activity feed; what it shows depends on whose it is (see activity:read-others). */
  "activity:read": ROLES,
  "activity:read-others": ["identityManager", "claimIssuer"],
  "externalToken:register": ["owner", "admin", "tokenManager"],
  "monitoring:read": ["owner", "admin"],
  "system:operate": ["owner", "systemManager"],
  /** The system's contract catalogue (directory, addon factories): addresses any member may read. */
  "system:read": ROLES,
  "exchangeRates:list": ["owner", "admin", "systemManager", "tokenManager", "auditor", "member"],
  "exchangeRates:read": ["owner", "admin", "systemManager", "tokenManager", "auditor", "member"],
  "exchangeRates:update": ["owner", "admin", "systemManager"],
  "exchangeRates:remove": ["owner", "admin", "systemManager"],
  "exchangeRates:sync": ["owner", "admin", "systemManager"],
  "complianceTemplate:read": ROLES,
  "complianceTemplate:manage": ["owner", "admin", "systemManager"],
} as const satisfies Record<string, readonly Role[]>;
export type Permission = keyof typeof PERMISSIONS;

export function rolesGranting(permission: Permission): readonly Role[] {
  return PERMISSIONS[permission];
}

export function hasPermission(roles: readonly string[], permission: Permission): boolean {
  return rolesGranting(permission).some((role) => roles.includes(role));
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
