// The token sale plugin's error codes (the sale's contract refusals map to the same codes: revert-errors.ts).
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  TOKEN_SALE_NOT_FOUND: def("SVC-17301", 404, "client", false, "Token sale not found.", "No token sale with this address exists on this chain that your organisation may see: only the sale's own organisation and organisations whose wallets purchased in it see a sale.", "Check the address (the issuer tells would-be buyers) and X-Chain-Id."),
  TOKEN_SALE_TOKEN_INVALID: def("SVC-17302", 422, "domain", false, "The token cannot be sold here.", "tokenAddress is not a token of your organisation's system on this chain.", "Sell a token your organisation's system created (GET /api/v2/tokens)."),
  TOKEN_SALE_PAYMENT_ASSET_INVALID: def("SVC-17303", 422, "domain", false, "The payment asset is not known to the system.", "paymentAsset is neither a token of your organisation's system nor an external token registered in it.", "Use a platform token, or register the ERC-20 first with POST /api/v2/external-tokens."),
  TOKEN_SALE_INVALID_PARAMETERS: def("SVC-17304", 422, "client", false, "The sale's terms are invalid.", "priceWad and hardCap must be above 0, softCap at most hardCap, startDate before endDate and endDate in the future.", "Correct the terms named in the message."),
  TOKEN_SALE_NOT_OPEN: def("SVC-17305", 409, "domain", false, "The sale is not open.", "Purchases are taken only between the sale's startDate and endDate.", "Purchase between startDate and endDate (GET the sale: status OPEN)."),
  TOKEN_SALE_HARD_CAP_EXCEEDED: def("SVC-17306", 422, "domain", false, "The purchase exceeds the sale's hard cap.", "The amount is above what is left to sell (details.available).", "Purchase at most details.available token units."),
  TOKEN_SALE_NOT_ENDED: def("SVC-17307", 409, "domain", false, "The sale has not ended.", "Withdrawals open after the sale's endDate.", "Withdraw after endDate."),
  TOKEN_SALE_NOTHING_TO_WITHDRAW: def("SVC-17308", 409, "domain", false, "Nothing is due to the signing wallet.", "The signing wallet bought nothing in this sale, already withdrew, or (as issuer) has no proceeds due: proceeds are due only when the soft cap was reached.", "Check the sale's purchases and proceedsWithdrawn (GET the sale)."),
} as const satisfies Record<string, ErrorDefinition>;
