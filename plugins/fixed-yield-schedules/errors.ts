// The fixed yield schedules plugin's error codes.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  FIXED_YIELD_SCHEDULE_NOT_FOUND: def("SVC-1730", 404, "client", false, "Fixed yield schedule not found.", "No fixed yield schedule of your organisation's system has this address.", "Use the scheduleAddress a completed POST /api/v2/addons/fixed-yield-schedules answered."),
  FIXED_YIELD_TOKEN_INVALID: def("SVC-1731", 422, "domain", false, "The token cannot carry a fixed yield schedule.", "tokenAddress is not a token of your organisation's system (details.reason not-a-system-token), or it lacks the historical-balances feature the schedule reads balances from (historical-balances-required).", "Use a token of your system created with the historical-balances feature."),
  FIXED_YIELD_DENOMINATION_ASSET_INVALID: def("SVC-1732", 422, "domain", false, "The denomination asset is not known to the system.", "denominationAsset is neither a token of your organisation's system nor one of its registered external tokens.", "Use a platform token of the system, or register the asset first (POST /api/v2/external-tokens)."),
  FIXED_YIELD_NOTHING_DUE: def("SVC-1733", 422, "domain", false, "Nothing is due to this holder.", "The signing wallet has claimed every completed period, or held no tokens at their ends.", "Read GET /api/v2/addons/fixed-yield-schedules/{scheduleAddress}?holder=… and claim once claimable is above 0 (after the next period ends)."),
  FIXED_YIELD_SCHEDULE_UNDERFUNDED: def("SVC-1734", 422, "domain", false, "The schedule holds less than the amount.", "Claims and withdrawals are paid from what the schedule holds, and it holds less (details: due for a claim, requested for a withdrawal, and available).", "For a claim, ask the schedule's owner to top it up (POST /api/v2/addons/fixed-yield-schedules/{scheduleAddress}/top-ups), then claim again; withdraw at most details.available."),
  FIXED_YIELD_NOT_OWNER: def("SVC-1735", 403, "permission", false, "Only the schedule's owner may withdraw.", "The signing wallet is not the schedule's owner (the wallet that created it).", "Sign with the owner's wallet (details.owner)."),
} as const satisfies Record<string, ErrorDefinition>;
