// Content negotiation for the precompressed documentation bodies.
import { describe, expect, it } from "vitest";
import { negotiateContentCoding } from "./accept-encoding.ts";

describe("negotiateContentCoding", () => {
  it("answers identity without an Accept-Encoding header", () => {
    expect(negotiateContentCoding(undefined)).toBe("identity");
    expect(negotiateContentCoding(null)).toBe("identity");
    expect(negotiateContentCoding("")).toBe("identity");
  });

  it("prefers br when both br and gzip are allowed", () => {
    expect(negotiateContentCoding("gzip, deflate, br, zstd")).toBe("br");
    expect(negotiateContentCoding("br;q=1.0, gzip;q=1.0")).toBe("br");
  });

  it("picks the only precompressed coding offered", () => {
    expect(negotiateContentCoding("br")).toBe("br");
    expect(negotiateContentCoding("gzip")).toBe("gzip");
    expect(negotiateContentCoding("GZIP, deflate")).toBe("gzip");
  });

  it("honours q-values, including q=0 as a refusal", () => {
    expect(negotiateContentCoding("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(negotiateContentCoding("br;q=0, gzip")).toBe("gzip");
    expect(negotiateContentCoding("br; q=0, gzip;q=0")).toBe("identity");
  });

  it("treats * as every coding not named", () => {
    expect(negotiateContentCoding("*")).toBe("br");
    expect(negotiateContentCoding("br;q=0, *")).toBe("gzip");
    expect(negotiateContentCoding("*;q=0")).toBe("identity");
  });

  it("answers identity when nothing precompressed is acceptable, even if identity is refused", () => {
    expect(negotiateContentCoding("deflate")).toBe("identity");
    expect(negotiateContentCoding("identity")).toBe("identity");
    expect(negotiateContentCoding("identity;q=0, deflate")).toBe("identity");
  });

  it("only picks codings the body is kept in", () => {
    expect(negotiateContentCoding("br, gzip", ["gzip"])).toBe("gzip");
    expect(negotiateContentCoding("br, gzip", [])).toBe("identity");
  });

  it("ignores malformed q-values instead of throwing", () => {
    expect(negotiateContentCoding("br;q=abc, gzip")).toBe("gzip");
    expect(negotiateContentCoding(" , ;, gzip")).toBe("gzip");
  });
});
