// The fixed yield schedules plugin's error codes.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  FIXED_YIELD_SCHEDULE_NOT_FOUND: { id: "SVC-1730", status: 404, category: "client", retryable: false, message: "Fixed yield schedule not found.", why: "No fixed yield schedule of your organisation's system has this address.", fix: "Use the scheduleAddress a completed POST /api/v2/addons/fixed-yield-schedules answered." },
  FIXED_YIELD_TOKEN_INVALID: { id: "SVC-1731", status: 422, category: "domain", retryable: false, message: "The token cannot carry a fixed yield schedule.", why: "tokenAddress is not a token of your organisation's system (details.reason not-a-system-token), or it lacks the historical-balances feature the schedule reads balances from (historical-balances-required).", fix: "Use a token of your system created with the historical-balances feature." },
  FIXED_YIELD_DENOMINATION_ASSET_INVALID: { id: "SVC-1732", status: 422, category: "domain", retryable: false, message: "The denomination asset is not known to the system.", why: "denominationAsset is neither a token of your organisation's system nor one of its registered external tokens.", fix: "Use a platform token of the system, or register the asset first (POST /api/v2/external-tokens)." },
  FIXED_YIELD_NOTHING_DUE: { id: "SVC-1733", status: 422, category: "domain", retryable: false, message: "Nothing is due to this holder.", why: "The signing wallet has claimed every completed period, or held no tokens at their ends.", fix: "Read GET /api/v2/addons/fixed-yield-schedules/{scheduleAddress}?holder=… and claim once claimable is above 0 (after the next period ends)." },
  FIXED_YIELD_SCHEDULE_UNDERFUNDED: { id: "SVC-1734", status: 422, category: "domain", retryable: false, message: "The schedule holds less than the amount.", why: "Claims and withdrawals are paid from what the schedule holds, and it holds less (details: due for a claim, requested for a withdrawal, and available).", fix: "For a claim, ask the schedule's owner to top it up (POST /api/v2/addons/fixed-yield-schedules/{scheduleAddress}/top-ups), then claim again; withdraw at most details.available." },
  FIXED_YIELD_NOT_OWNER: { id: "SVC-1735", status: 403, category: "permission", retryable: false, message: "Only the schedule's owner may withdraw.", why: "The signing wallet is not the schedule's owner (the wallet that created it).", fix: "Sign with the owner's wallet (details.owner)." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
