// The exchange rates' settings (docs/configuration.md): where the rates are read.
import { z } from "zod";

export const ExchangeRateSettings = z.object({
  EXCHANGE_RATES_PROVIDER: z
    .enum(["file", "ecb"])
    .default("file")
    .describe(
      "Where `POST /api/v2/exchange-rates/sync` and the hourly sync read rates: `file` (JSON) or `ecb` (the ECB's " +
        "daily reference rates, XML).",
    ),
  EXCHANGE_RATES_FILE: z.string().min(1).optional().meta({
    description: 'The `file` provider\'s JSON document (`{base, effectiveAt, rates: {CODE: "decimal"}}`).',
    defaultText: "`plugins/exchange-rates/sample-rates.json`",
  }),
  EXCHANGE_RATES_ECB_URL: z
    .string()
    .url()
    .default("https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml")
    .describe("The `ecb` provider's document."),
});
export type ExchangeRateSettings = z.output<typeof ExchangeRateSettings>;
