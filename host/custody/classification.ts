// Key classification: what a custody key may sign. `operational` keys sign every kind of write; `treasury` keys only
// moves of value (transfers, approvals, permits, sale withdrawals), never a mint or a governance change.
import type { WalletsTable } from "../db/platform-types.ts";

export type KeyClassification = Exclude<WalletsTable["custodyClassification"]["__select__"], undefined>;

const TREASURY_KINDS = new Set([
  "token.transfer",
  "token.approve",
  "token.permit",
  "externalToken.approve",
  "tokenSale.withdraw",
]);

export function classificationAllows(classification: KeyClassification, kind: string): boolean {
  return classification === "operational" || TREASURY_KINDS.has(kind);
}
