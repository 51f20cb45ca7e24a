// The permissions of an organisation's system and its operation, with the organisation roles that grant each.
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  "monitoring:read": ["owner", "admin"],
  "system:operate": ["owner", "systemManager"],
  "organization:settings": ["owner", "admin"],
  // The spec's exchange-rate permissions, held here until an exchange-rates plugin declares its routes.
  "exchangeRates:list": ["owner", "admin", "systemManager", "tokenManager", "auditor", "member"],
  "exchangeRates:read": ["owner", "admin", "systemManager", "tokenManager", "auditor", "member"],
  "exchangeRates:update": ["owner", "admin", "systemManager"],
  "exchangeRates:remove": ["owner", "admin", "systemManager"],
  "exchangeRates:sync": ["owner", "admin", "systemManager"],
} as const satisfies Record<string, readonly Role[]>;
