// The error codes of the exchange rates, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  EXCHANGE_RATE_NOT_FOUND: def("SVC-1701", 404, "client", false, "Exchange rate not found.", "Neither a feed nor a manual override holds a rate for this currency pair.", "Sync the rates (POST /api/v2/exchange-rates/sync) or set an override with PUT."),
  EXCHANGE_RATE_OVERRIDE_NOT_FOUND: def("SVC-1702", 404, "client", false, "No manual override for this pair.", "The pair has no manual override to remove.", "Read the pair with GET; only an override set with PUT can be removed."),
  EXCHANGE_RATE_PROVIDER_UNAVAILABLE: def("SVC-1703", 502, "dependency", true, "The exchange rate provider could not be read.", "The configured provider (EXCHANGE_RATES_PROVIDER) failed or answered a document that is not a rate list.", "Check EXCHANGE_RATES_FILE or EXCHANGE_RATES_ECB_URL and retry."),
  EXCHANGE_RATE_FEEDS_UNAVAILABLE: def("SVC-1704", 409, "client", false, "The system has no exchange rate feed registry.", "The organisation's system was created before exchange rate feeds existed.", "Create a new system for the organisation on this chain."),
} as const satisfies Record<string, ErrorDefinition>;
