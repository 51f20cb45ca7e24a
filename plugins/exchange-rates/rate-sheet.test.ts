import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { currenciesOf, parseEcbDaily, parseRateFile } from "./rate-sheet.ts";

describe("rate sheets", () => {
  it("parses the ECB's daily document", () => {
    const xml = readFileSync(join(import.meta.dirname, "../../test/fixtures/eurofxref-daily.xml"), "utf8");
    const sheet = parseEcbDaily(xml);
    expect(sheet.base).toBe("EUR");
    expect(sheet.effectiveAt.toISOString()).toBe("2026-11-24T15:00:00.000Z");
    expect(sheet.rates.USD).toBe("1.0498");
    expect(sheet.rates.JPY).toBe("161.87");
    expect(currenciesOf(sheet)[0]).toBe("AUD");
  });

  it("parses the shipped sample file and refuses a malformed one", () => {
    const sheet = parseRateFile(readFileSync(join(import.meta.dirname, "sample-rates.json"), "utf8"));
    expect(sheet.rates.USD).toBe("1.0512");
    expect(currenciesOf(sheet)).toEqual([...currenciesOf(sheet)].sort());
    expect(() => parseRateFile('{"base":"EUR","effectiveAt":"x","rates":{}}')).toThrow(/not a rate file/);
    expect(() => parseEcbDaily("<gesmes/>")).toThrow(/no <Cube/);
  });
});
