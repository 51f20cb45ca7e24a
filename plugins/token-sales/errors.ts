// The token sale plugin's error codes (the sale's contract refusals map to the same codes: revert-errors.ts).
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  TOKEN_SALE_NOT_FOUND: { id: "SVC-17301", status: 404, category: "client", retryable: false, message: "Token sale not found.", why: "No token sale with this address exists on this chain that your organisation may see: only the sale's own organisation and organisations whose wallets purchased in it see a sale.", fix: "Check the address (the issuer tells would-be buyers) and X-Chain-Id." },
  TOKEN_SALE_TOKEN_INVALID: { id: "SVC-17302", status: 422, category: "domain", retryable: false, message: "The token cannot be sold here.", why: "tokenAddress is not a token of your organisation's system on this chain.", fix: "Sell a token your organisation's system created (GET /api/v2/tokens)." },
  TOKEN_SALE_PAYMENT_ASSET_INVALID: { id: "SVC-17303", status: 422, category: "domain", retryable: false, message: "The payment asset is not known to the system.", why: "paymentAsset is neither a token of your organisation's system nor an external token registered in it.", fix: "Use a platform token, or register the ERC-20 first with POST /api/v2/external-tokens." },
  TOKEN_SALE_INVALID_PARAMETERS: { id: "SVC-17304", status: 422, category: "client", retryable: false, message: "The sale's terms are invalid.", why: "priceWad and hardCap must be above 0, softCap at most hardCap, startDate before endDate and endDate in the future.", fix: "Correct the terms named in the message." },
  TOKEN_SALE_NOT_OPEN: { id: "SVC-17305", status: 409, category: "domain", retryable: false, message: "The sale is not open.", why: "Purchases are taken only between the sale's startDate and endDate.", fix: "Purchase between startDate and endDate (GET the sale: status OPEN)." },
  TOKEN_SALE_HARD_CAP_EXCEEDED: { id: "SVC-17306", status: 422, category: "domain", retryable: false, message: "The purchase exceeds the sale's hard cap.", why: "The amount is above what is left to sell (details.available).", fix: "Purchase at most details.available token units." },
  TOKEN_SALE_NOT_ENDED: { id: "SVC-17307", status: 409, category: "domain", retryable: false, message: "The sale has not ended.", why: "Withdrawals open after the sale's endDate.", fix: "Withdraw after endDate." },
  TOKEN_SALE_NOTHING_TO_WITHDRAW: { id: "SVC-17308", status: 409, category: "domain", retryable: false, message: "Nothing is due to the signing wallet.", why: "The signing wallet bought nothing in this sale, already withdrew, or (as issuer) has no proceeds due: proceeds are due only when the soft cap was reached.", fix: "Check the sale's purchases and proceedsWithdrawn (GET the sale)." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
