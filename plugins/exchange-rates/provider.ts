// Rate providers (EXCHANGE_RATES_PROVIDER): `file`, a JSON document on disk (the embedded default, sample rates
// shipped beside this file), and `ecb`, the European Central Bank's daily reference rates (eurofxref-daily.xml).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ApiError } from "../../host/errors/api-error.ts";
import { parseEcbDaily, parseRateFile, type RateSheet } from "./rate-sheet.ts";

export interface RateProvider {
  key: "file" | "ecb";
  fetch(): Promise<RateSheet>;
}

export interface ProviderConfig {
  EXCHANGE_RATES_PROVIDER: "file" | "ecb";
  EXCHANGE_RATES_FILE?: string;
  EXCHANGE_RATES_ECB_URL: string;
}

export const SAMPLE_RATES_FILE = join(import.meta.dirname, "sample-rates.json");
const ECB_TIMEOUT_MS = 10_000;

const unavailable = (why: string) =>
  new ApiError("EXCHANGE_RATE_PROVIDER_UNAVAILABLE", { message: `The exchange rate provider failed: ${why}` });

async function read<T>(what: () => Promise<T>): Promise<T> {
  try {
    return await what();
  } catch (error) {
    throw error instanceof ApiError ? error : unavailable(error instanceof Error ? error.message : String(error));
  }
}

export function rateProvider(config: ProviderConfig): RateProvider {
  if (config.EXCHANGE_RATES_PROVIDER === "ecb") {
    const url = config.EXCHANGE_RATES_ECB_URL;
    return {
      key: "ecb",
      fetch: () =>
        read(async () => {
          const res = await fetch(url, { signal: AbortSignal.timeout(ECB_TIMEOUT_MS) });
          if (!res.ok) throw unavailable(`${url} answered ${res.status}`);
          return parseEcbDaily(await res.text());
        }),
    };
  }
  const file = config.EXCHANGE_RATES_FILE ?? SAMPLE_RATES_FILE;
  return { key: "file", fetch: () => read(async () => parseRateFile(await readFile(file, "utf8"))) };
}
