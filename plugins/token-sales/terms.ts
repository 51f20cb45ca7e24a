// Pure rules of a sale, as TokenSale.sol decides them: the price of an amount, the status at a time, valid terms.
const WAD = 10n ** 18n;

export const SALE_STATUSES = ["UPCOMING", "OPEN", "SOLD_OUT", "ENDED_SUCCESS", "ENDED_REFUNDING"] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

export interface SaleTerms {
  priceWad: bigint;
  hardCap: bigint;
  softCap: bigint;
  /** Unix seconds. */
  startDate: bigint;
  endDate: bigint;
}

/** What `amount` token units cost in payment units: amount × priceWad / 1e18, rounded up (priceOf). */
export function priceOf(amount: bigint, priceWad: bigint): bigint {
  return (amount * priceWad + WAD - 1n) / WAD;
}

/** Open from startDate to endDate inclusive; after endDate, the soft cap reached or missed; SOLD_OUT while open. */
export function saleStatus(sale: SaleTerms & { sold: bigint }, now: bigint): SaleStatus {
  if (now > sale.endDate) return sale.sold >= sale.softCap ? "ENDED_SUCCESS" : "ENDED_REFUNDING";
  if (now < sale.startDate) return "UPCOMING";
  return sale.sold >= sale.hardCap ? "SOLD_OUT" : "OPEN";
}

/** Why the contract would refuse these terms (TokenSaleInvalidParameters), or null. */
export function termsProblem(terms: SaleTerms, now: bigint): string | null {
  if (terms.priceWad === 0n) return "priceWad must be above 0";
  if (terms.hardCap === 0n) return "hardCap must be above 0";
  if (terms.softCap > terms.hardCap) return "softCap must be at most hardCap";
  if (terms.startDate >= terms.endDate) return "startDate must be before endDate";
  if (terms.endDate <= now) return "endDate must be in the future";
  return null;
}
