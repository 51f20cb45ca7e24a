// The provider's currencies, cached per process (the provider is read at most once an hour for this list).

import type { RateProvider } from "./provider.ts";
import { currenciesOf } from "./rate-sheet.ts";

const TTL_MS = 60 * 60 * 1000;

export function supportedCurrencies(provider: RateProvider) {
  let cached: { at: number; currencies: Promise<string[]> } | undefined;
  return async () => {
    if (!cached || Date.now() - cached.at > TTL_MS) {
      const currencies = provider.fetch().then(currenciesOf);
      cached = { at: Date.now(), currencies };
      currencies.catch(() => {
        cached = undefined; // a failure is not cached
      });
    }
    return { providerKey: provider.key, currencies: await cached.currencies };
  };
}
