// A sync: the provider's sheet as one publishRates call on the system's feed registry (a pair without a feed gets
// one first, on chain), submitted by a route or by the hourly cron entry; and what its receipt tells.
import { encodeFunctionData, type Hex, parseEventLogs, parseUnits } from "viem";
import { ExchangeRateFeedAbi } from "../../abis/ExchangeRateFeed.ts";
import { ExchangeRateFeedRegistryAbi } from "../../abis/ExchangeRateFeedRegistry.ts";
import type { MutationKind } from "../../host/mutations/service.ts";
import type { RateSheet } from "./rate-sheet.ts";

/** ExchangeRateFeedRegistry.FEED_DECIMALS. */
export const FEED_DECIMALS = 8;
export const SYNC_KIND = "exchangeRates.sync";

export function publishRatesCall(sheet: RateSheet): Hex {
  const quotes = Object.keys(sheet.rates).sort();
  return encodeFunctionData({
    abi: ExchangeRateFeedRegistryAbi,
    functionName: "publishRates",
    args: [
      quotes.map(() => sheet.base),
      quotes,
      quotes.map((quote) => parseUnits(sheet.rates[quote], FEED_DECIMALS)),
      BigInt(Math.floor(sheet.effectiveAt.getTime() / 1000)),
    ],
  });
}

export const MUTATION_KINDS: Record<string, MutationKind> = {
  [SYNC_KIND]: {
    result(receipt) {
      const logs = parseEventLogs({
        abi: [...ExchangeRateFeedAbi, ...ExchangeRateFeedRegistryAbi],
        logs: receipt.logs,
      });
      return {
        ratesUpdated: logs.filter((l) => l.eventName === "AnswerUpdated").length,
        feedsCreated: logs.filter((l) => l.eventName === "ExchangeRateFeedCreated").length,
      };
    },
  },
};
