// A provider's rates as one sheet (a base currency, its quotes, one effective date), parsed from either format.
import { z } from "zod";
import { isStorableTime, STORABLE_TIME_RULE } from "../../domain/time/storable-time.ts";

export interface RateSheet {
  base: string;
  effectiveAt: Date;
  /** Quote currency → quote units one base unit buys (decimal string). */
  rates: Record<string, string>;
}

const Code = z.string().regex(/^[A-Z]{3}$/);
const Decimal = z.string().regex(/^\d+(\.\d+)?$/);

/** `{"base": "EUR", "effectiveAt": "2026-11-25", "rates": {"USD": "1.0512", ...}}` (sample-rates.json). */
const RateFile = z.object({
  base: Code,
  effectiveAt: z.string().refine((v) => isStorableTime(Date.parse(v)), `a date that ${STORABLE_TIME_RULE}`),
  rates: z.record(Code, Decimal),
});

export function parseRateFile(text: string): RateSheet {
  const parsed = RateFile.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`not a rate file: ${parsed.error.issues[0]?.message}`);
  const { base, effectiveAt, rates } = parsed.data;
  return { base, effectiveAt: new Date(effectiveAt), rates: withoutBase(base, rates) };
}

/** The ECB's eurofxref-daily.xml: `<Cube time='YYYY-MM-DD'>` holding `<Cube currency='USD' rate='1.0512'/>`. */
export function parseEcbDaily(xml: string): RateSheet {
  const time = /<Cube\s+time=["'](\d{4}-\d{2}-\d{2})["']/.exec(xml)?.[1];
  if (!time) throw new Error("no <Cube time=...> in the ECB document");
  const rates: Record<string, string> = {};
  for (const m of xml.matchAll(/<Cube\s+currency=["']([A-Z]{3})["']\s+rate=["'](\d+(?:\.\d+)?)["']\s*\/>/g)) {
    rates[m[1]] = m[2];
  }
  if (Object.keys(rates).length === 0) throw new Error("no rates in the ECB document");
  // Reference rates are set at 16:00 CET on the day.
  return { base: "EUR", effectiveAt: new Date(`${time}T15:00:00Z`), rates };
}

function withoutBase(base: string, rates: Record<string, string>) {
  return Object.fromEntries(Object.entries(rates).filter(([quote]) => quote !== base));
}

/** Every code of the sheet, base included, sorted. */
export const currenciesOf = (sheet: RateSheet) => [sheet.base, ...Object.keys(sheet.rates)].sort();
