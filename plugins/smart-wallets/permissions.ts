// The smart-wallet permissions: provisioning a wallet spends the organisation's gas (its signer pays the deployment,
// its paymaster the wallet's operations), so only the roles trusted with that money hold them.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

const GAS_SPENDERS = ["owner", "admin", "gasManager"] as const satisfies readonly Role[];

export const PERMISSIONS = {
  /** POST /api/v2/smart-wallets (and its /api/rpc twin). */
  "smartWallet:create": GAS_SPENDERS,
  /**
   * Deciding the paymaster's sponsorship of a wallet: `sponsored: true` at creation for a wallet whose signers are not
   * all the organisation's custody wallets, and PUT …/{address}/sponsorship (grant or revoke).
   */
  "smartWallet:sponsor": GAS_SPENDERS,
  /** Reading the organisation's smart wallets: one, its signers, its gas status, its pending approvals. */
  "smartWallet:read": ROLES,
  /**
   * Acting on a wallet one holds a part in: its owner changes the threshold, a co-signer signs a pending approval
   * (the route checks who). The read-only auditor holds no part.
   */
  "smartWallet:operate": ROLES.filter((role) => role !== "auditor"),
} as const satisfies Record<string, readonly Role[]>;
