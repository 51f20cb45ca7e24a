// The refusals before a sale write is queued, with the codes the contract's reverts map to (revert-errors.ts).

import { type Address, getAddress } from "viem";
import { knownAsset } from "../../host/addons/assets.ts";
import { chainNow } from "../../host/chain/chain-time.ts";
import { assertErc20Funds } from "../../host/chain/erc20-funds.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { indexedHex, isoFromSeconds } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { PurchaseRow, SaleRow } from "./sale-read.ts";
import { priceOf, type SaleTerms, saleStatus, termsProblem } from "./terms.ts";

/** The token is the system's; the payment asset is the system's or a registered external token; the terms hold. */
export async function assertCreatable(
  chain: RequestChain,
  input: { token: Address; paymentAsset: Address; terms: SaleTerms },
) {
  const system = getAddress(chain.systemAddress);
  if ((await knownAsset(chain.ledger, input.token, system))?.kind !== "token") {
    throw new ApiError("TOKEN_SALE_TOKEN_INVALID", {
      message: `${input.token} is not a token of your organisation's system`,
      details: { tokenAddress: input.token },
    });
  }
  if (!(await knownAsset(chain.ledger, input.paymentAsset, system))) {
    throw new ApiError("TOKEN_SALE_PAYMENT_ASSET_INVALID", {
      message: `${input.paymentAsset} is neither a token of your organisation's system nor a registered external token`,
      details: { paymentAsset: input.paymentAsset },
    });
  }
  const problem = termsProblem(input.terms, await chainNow(chain.client));
  if (problem) throw new ApiError("TOKEN_SALE_INVALID_PARAMETERS", { message: `Invalid terms: ${problem}` });
}

/**
 * The sale is open and has `amount` left, and the signer can pay for it: its allowance to the sale and its balance
 * of the payment asset (read live: an approval leaves nothing in the index) cover priceOf(amount).
 */
export async function assertPurchasable(chain: RequestChain, sale: SaleRow, buyer: Address, amount: bigint) {
  if (amount === 0n) throw new ApiError("TOKEN_SALE_INVALID_PARAMETERS", { message: "amount must be above 0" });
  const status = saleStatus(sale, await chainNow(chain.client));
  if (status === "UPCOMING" || status === "ENDED_SUCCESS" || status === "ENDED_REFUNDING") {
    const [startDate, endDate] = [isoFromSeconds(sale.startDate), isoFromSeconds(sale.endDate)];
    throw new ApiError("TOKEN_SALE_NOT_OPEN", {
      message: `The sale takes purchases from ${startDate} to ${endDate} (now ${status})`,
      details: { status, startDate, endDate },
    });
  }
  const available = sale.hardCap - sale.sold;
  if (amount > available) {
    throw new ApiError("TOKEN_SALE_HARD_CAP_EXCEEDED", {
      message: `The purchase exceeds the hard cap: ${available} token units are left`,
      details: { available: available.toString(), requested: amount.toString() },
    });
  }
  const spender = getAddress(sale.id);
  const asset = getAddress(sale.paymentAsset);
  const required = priceOf(amount, sale.priceWad);
  await assertErc20Funds(chain.client, { asset, owner: buyer, spender, amount: required });
}

/** After the end, something is due to the signer: its tokens or refund, or (soft cap reached) the issuer's proceeds. */
export async function assertWithdrawable(
  chain: RequestChain,
  sale: SaleRow,
  purchases: PurchaseRow[],
  account: Address,
) {
  const now = await chainNow(chain.client);
  if (now <= sale.endDate) {
    const endDate = isoFromSeconds(sale.endDate);
    throw new ApiError("TOKEN_SALE_NOT_ENDED", {
      message: `The sale ends at ${endDate}; withdrawals open after it`,
      details: { endDate },
    });
  }
  const reached = sale.sold >= sale.softCap;
  const proceedsDue = reached && indexedHex(account) === sale.issuer && !sale.proceedsWithdrawn;
  const own = purchases.find((p) => p.buyer === indexedHex(account));
  const purchaseDue = own !== undefined && !own.withdrawn && !own.refunded;
  if (!proceedsDue && !purchaseDue) {
    throw new ApiError("TOKEN_SALE_NOTHING_TO_WITHDRAW", {
      message: `Nothing in this sale is due to ${account}`,
      details: { account, softCapReached: reached },
    });
  }
}
