import { encodeErrorResult, keccak256, RawContractError, toBytes } from "viem";
import { describe, expect, it } from "vitest";
import { TokenAbi } from "../../abis/Token.ts";
import { decodeContractError } from "./contract-errors.ts";
import { revertError } from "./revert-errors.ts";

const MODULE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const ACCOUNT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

function decoded(errorName: string, args: readonly unknown[]) {
  const data = encodeErrorResult({ abi: TokenAbi, errorName, args } as Parameters<typeof encodeErrorResult>[0]);
  const contractError = decodeContractError(new RawContractError({ data }));
  if (!contractError) throw new Error(`${errorName} did not decode`);
  return contractError;
}

describe("reverts in the spec's envelope", () => {
  it("maps a compliance refusal to COMPLIANCE_CHECK_FAILED naming the module, its typeId and the reason", () => {
    const error = revertError(
      decoded("ComplianceCheckFailed", [MODULE, "country-allow-list-v2", "country not allowed"]),
    );
    expect(error).toMatchObject({ code: "COMPLIANCE_CHECK_FAILED", status: 422 });
    expect(error.definition.id).toBe("SVC-1105");
    expect(error.message).toContain("country-allow-list-v2");
    expect(error.details).toMatchObject({
      module: MODULE,
      typeId: "country-allow-list-v2",
      reason: "country not allowed",
      contractError: { id: "ComplianceCheckFailed" },
    });
  });

  it("maps a frozen balance to SVC-1106 and a missing role to a permission error naming the role", () => {
    const frozen = revertError(decoded("InsufficientUnfrozenBalance", [ACCOUNT, 5n, 6n]), {
      details: { transactionId: "t1" },
    });
    expect(frozen).toMatchObject({ code: "TOKEN_FROZEN_BALANCE_EXCEEDED", status: 422 });
    expect(frozen.definition.id).toBe("SVC-1106");
    expect(frozen.details).toMatchObject({ transactionId: "t1", account: ACCOUNT, available: "5", requested: "6" });

    const role = revertError(
      decoded("AccessControlUnauthorizedAccount", [ACCOUNT, keccak256(toBytes("CUSTODIAN_ROLE"))]),
    );
    expect(role).toMatchObject({ code: "CONTRACT_ROLE_MISSING", status: 403 });
    expect(role.definition.category).toBe("permission");
    expect(role.details).toMatchObject({ account: ACCOUNT, requiredRole: "CUSTODIAN_ROLE" });
  });

  it("keeps CONTRACT_ERROR for reverts without a rule, and explains the mapped ones on the request", () => {
    const other = revertError(decoded("ERC20InvalidReceiver", ["0x0000000000000000000000000000000000000000"]));
    expect(other).toMatchObject({ code: "CONTRACT_ERROR", status: 422 });
    expect(revertError(decoded("DocumentNotFound", [`0x${"00".repeat(32)}`])).status).toBe(404);
    expect(decoded("TokenPaused", []).why).toMatch(/pause/);
    expect(revertError(decoded("TokenPaused", []))).toMatchObject({ code: "TOKEN_PAUSED", status: 409 });
  });

  it("carries the error's dalpCode, retryable and suggestedAction as route fields and on contractError", () => {
    const paused = revertError(decoded("TokenPaused", []));
    expect(paused.details).toMatchObject({
      dalpCode: "TOKEN_PAUSED",
      retryable: true,
      suggestedAction: expect.stringContaining("unpause"),
      contractError: { id: "TokenPaused", dalpCode: "TOKEN_PAUSED", retryable: true },
    });
    const other = revertError(decoded("ERC20InvalidReceiver", ["0x0000000000000000000000000000000000000000"]));
    expect(other.details).toMatchObject({ dalpCode: "ERC20_INVALID_RECEIVER", retryable: false });
  });
});
