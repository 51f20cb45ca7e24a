import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.ts";
import { parseTransactionSpeed } from "./transaction-speed.ts";

describe("parseTransactionSpeed", () => {
  it("is standard without the header, and takes slow, standard and fast (surrounding spaces ignored)", () => {
    expect(parseTransactionSpeed(undefined)).toBe("standard");
    expect(parseTransactionSpeed("slow")).toBe("slow");
    expect(parseTransactionSpeed(" fast ")).toBe("fast");
  });

  it("refuses anything else with 400 BAD_REQUEST naming the header", () => {
    for (const value of ["turbo", "", "Fast", "1"]) {
      try {
        parseTransactionSpeed(value);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).code).toBe("BAD_REQUEST");
        expect(JSON.stringify((error as ApiError).details)).toContain("X-Transaction-Speed");
      }
    }
  });
});
