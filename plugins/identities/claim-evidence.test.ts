import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { documentUri } from "./claim-evidence.ts";

describe("a claim's evidence uri", () => {
  it("is the document's RFC 6920 name", () => {
    // RFC 6920 §8.1's example: the sha-256 of "Hello World!".
    const sha256 = `0x${createHash("sha256").update("Hello World!").digest("hex")}`;
    expect(documentUri(sha256)).toBe("ni:///sha-256;f4OxZX_x_FO5LcGBSKHWXfwtSx-j1ncoSt3SABJtkGk");
  });
});
