import { describe, expect, it } from "vitest";
import { PLATFORM_ERRORS } from "../chain/platform-abi.ts";
import { CONTRACT_ERROR_CODES, contractErrorCode, UNKNOWN_CONTRACT_ERROR } from "./contract-error-codes.ts";
import { withErrorCode } from "./contract-errors.ts";

const declared = [...new Set(PLATFORM_ERRORS.map((item) => (item as { name: string }).name))];

describe("the contract error table", () => {
  it("has an entry for every custom error of the platform's contracts (abis/)", () => {
    expect(declared.length).toBeGreaterThan(150);
    expect(declared.filter((name) => !Object.hasOwn(CONTRACT_ERROR_CODES, name))).toEqual([]);
  });

  it("lists no error the contracts do not declare, each code once, in SCREAMING_SNAKE_CASE with an action", () => {
    expect(Object.keys(CONTRACT_ERROR_CODES).filter((name) => !declared.includes(name))).toEqual([]);
    const codes = Object.values(CONTRACT_ERROR_CODES).map((entry) => entry.dalpCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of Object.values(CONTRACT_ERROR_CODES)) {
      expect(entry.dalpCode).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(entry.suggestedAction.length).toBeGreaterThan(10);
    }
  });

  it("names the spec's examples, retryable where a state of the chain refuses", () => {
    expect(contractErrorCode("TokenPaused")).toMatchObject({ dalpCode: "TOKEN_PAUSED", retryable: true });
    expect(contractErrorCode("ComplianceCheckFailed")).toMatchObject({ dalpCode: "COMPLIANCE_CHECK_FAILED" });
    expect(contractErrorCode("ERC20InsufficientBalance")).toMatchObject({ dalpCode: "INSUFFICIENT_BALANCE" });
    expect(contractErrorCode("ZeroAddress").retryable).toBe(false);
    expect(contractErrorCode("toString")).toBe(UNKNOWN_CONTRACT_ERROR);
  });

  it("completes a contractError recorded before the table existed", () => {
    const recorded = { id: "TokenPaused", args: {}, why: "", message: "TokenPaused()", fix: "" };
    expect(withErrorCode(recorded)).toMatchObject({ id: "TokenPaused", dalpCode: "TOKEN_PAUSED", retryable: true });
  });
});
