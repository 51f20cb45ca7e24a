import { describe, expect, it } from "vitest";
import { storableText } from "./storable-text.ts";

describe("storableText", () => {
  it("replaces NUL and lone surrogates with U+FFFD, keeps pairs and everything else", () => {
    expect(storableText("a\u0000b")).toBe("a\uFFFDb");
    expect(storableText("x\uD800y\uDC00z")).toBe("x\uFFFDy\uFFFDz");
    expect(storableText("end\uD83D")).toBe("end\uFFFD");
    expect(storableText("emoji 😀 ok")).toBe("emoji 😀 ok");
  });
});
