import { describe, expect, it } from "vitest";
import { alpha2OfNumeric, ISO3166_COUNTRY_COUNT } from "./iso3166.ts";

describe("ISO 3166-1 numeric to alpha-2", () => {
  it("maps every listed country, and nothing else", () => {
    expect(ISO3166_COUNTRY_COUNT).toBe(249);
    expect(alpha2OfNumeric(56)).toBe("BE");
    expect(alpha2OfNumeric(840)).toBe("US");
    expect(alpha2OfNumeric(276)).toBe("DE");
    expect(alpha2OfNumeric(4)).toBe("AF");
    expect(alpha2OfNumeric(716)).toBe("ZW");
    expect(alpha2OfNumeric(0)).toBeNull();
    expect(alpha2OfNumeric(999)).toBeNull();
  });
});
