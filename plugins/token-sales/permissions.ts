// The permissions of token sales: the issuer side (creating a sale) for token managers, a party's own actions
// (purchase, withdraw) for every member who may write, reads for every role.
import { ROLES, type Role } from "../../host/auth/permissions.ts";

const WRITERS = ROLES.filter((role) => role !== "auditor");

export const PERMISSIONS = {
  "tokenSale:read": ROLES,
  "tokenSale:create": ["owner", "admin", "tokenManager"],
  /** Purchasing and withdrawing (tokens, a refund, or the issuer's proceeds) with the signing wallet. */
  "tokenSale:participate": WRITERS,
} as const satisfies Record<string, readonly Role[]>;
