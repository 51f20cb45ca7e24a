// Human summaries of token writes for their transaction requests: "Mint 1,500.5 EURD to 0x7099…79C8".
import { accountList, formatAmount, shortAddress } from "../../host/mutations/describe.ts";

interface SummaryToken {
  symbol: string;
  decimals: number;
}

/** An amount in the token's units with its symbol: 1,500.5 EURD. */
export const amountOf = (token: SummaryToken, raw: bigint | string) =>
  `${formatAmount(raw, token.decimals)} ${token.symbol}`;

/** A batch's amount: the one amount, or the sum "in total" over several accounts. */
function batchAmount(token: SummaryToken, amounts: readonly string[]) {
  const total = amounts.reduce((sum, amount) => sum + BigInt(amount), 0n);
  return `${amountOf(token, total)}${amounts.length > 1 ? " in total" : ""}`;
}

export const mintSummary = (token: SummaryToken, recipients: readonly string[], amounts: readonly string[]) =>
  `Mint ${batchAmount(token, amounts)} to ${accountList(recipients)}`;

export const burnSummary = (token: SummaryToken, holders: readonly string[], amounts: readonly string[]) =>
  `Burn ${batchAmount(token, amounts)} from ${accountList(holders)}`;

export const transferSummary = (token: SummaryToken, recipients: readonly string[], amounts: readonly string[]) =>
  `Transfer ${batchAmount(token, amounts)} to ${accountList(recipients)}`;

export const forcedTransferSummary = (token: SummaryToken, from: string, to: string, amount: string) =>
  `Force transfer ${amountOf(token, amount)} from ${shortAddress(from)} to ${shortAddress(to)}`;

export const approvalSummary = (token: SummaryToken, spender: string, amount: string) =>
  BigInt(amount) === 0n
    ? `Revoke ${shortAddress(spender)}'s allowance of ${token.symbol}`
    : `Approve ${shortAddress(spender)} to spend ${amountOf(token, amount)}`;
