// The spec's exchange-rate permissions (its permissions table), with the organisation roles that grant each.
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "exchangeRates:list": ["owner", "admin", "systemManager", "tokenManager", "auditor", "member"],
  "exchangeRates:read": ["owner", "admin", "systemManager", "tokenManager", "auditor", "member"],
  "exchangeRates:update": ["owner", "admin", "systemManager"],
  "exchangeRates:remove": ["owner", "admin", "systemManager"],
  "exchangeRates:sync": ["owner", "admin", "systemManager"],
} as const satisfies Record<string, readonly Role[]>;
