// The error codes of the exchange rates, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  EXCHANGE_RATE_NOT_FOUND: { id: "SVC-1701", status: 404, category: "client", retryable: false, message: "Exchange rate not found.", why: "Neither a feed nor a manual override holds a rate for this currency pair.", fix: "Sync the rates (POST /api/v2/exchange-rates/sync) or set an override with PUT." },
  EXCHANGE_RATE_OVERRIDE_NOT_FOUND: { id: "SVC-1702", status: 404, category: "client", retryable: false, message: "No manual override for this pair.", why: "The pair has no manual override to remove.", fix: "Read the pair with GET; only an override set with PUT can be removed." },
  EXCHANGE_RATE_PROVIDER_UNAVAILABLE: { id: "SVC-1703", status: 502, category: "dependency", retryable: true, message: "The exchange rate provider could not be read.", why: "The configured provider (EXCHANGE_RATES_PROVIDER) failed or answered a document that is not a rate list.", fix: "Check EXCHANGE_RATES_FILE or EXCHANGE_RATES_ECB_URL and retry." },
  EXCHANGE_RATE_FEEDS_UNAVAILABLE: { id: "SVC-1704", status: 409, category: "client", retryable: false, message: "The system has no exchange rate feed registry.", why: "The organisation's system was created before exchange rate feeds existed.", fix: "Create a new system for the organisation on this chain." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
