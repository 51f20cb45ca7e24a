// Maps a revert to the transaction request's `contractError` using the platform contracts' custom errors.
import { BaseError, decodeErrorResult, type Hex } from "viem";
import { PLATFORM_ERRORS } from "../chain/platform-abi.ts";
import { type ContractErrorCode, contractErrorCode } from "./contract-error-codes.ts";
import { explainRevert } from "./revert-errors.ts";

export interface ContractError extends ContractErrorCode {
  id: string;
  args: Record<string, string>;
  why: string;
  message: string;
  fix: string;
}

/**
 * The error's dalpCode, retryable and suggestedAction from the table (contract-error-codes.ts), for one decoded now
 * or recorded on a request before the table existed.
 */
export function withErrorCode<T extends { id: string }>(contractError: T): T & ContractErrorCode {
  return { ...contractError, ...contractErrorCode(contractError.id) };
}

function revertData(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined;
  let found: Hex | undefined;
  error.walk((e) => {
    const data = (e as { data?: unknown }).data;
    if (typeof data === "string" && data.startsWith("0x") && data.length >= 10) found = data as Hex;
    else if (data && typeof data === "object" && typeof (data as { data?: unknown }).data === "string") {
      found = (data as { data: Hex }).data;
    }
    return false;
  });
  return found;
}

export function decodeContractError(error: unknown): ContractError | undefined {
  const data = revertData(error);
  return data ? decodeRevertData(data) : undefined;
}

/** A revert's data (selector and arguments) as a platform contract's custom error, when it is one. */
export function decodeRevertData(data: Hex): ContractError | undefined {
  try {
    const decoded = decodeErrorResult({ abi: PLATFORM_ERRORS, data });
    const inputs = (decoded.abiItem as { inputs?: readonly { name?: string }[] }).inputs ?? [];
    const args = Object.fromEntries(inputs.map((input, i) => [input.name || `arg${i}`, String(decoded.args?.[i])]));
    return withErrorCode({
      id: decoded.errorName,
      args,
      why: `The contract reverted with ${decoded.errorName}.`,
      message: `${decoded.errorName}(${Object.values(args).join(", ")})`,
      fix: "Resolve the condition the contract names, then submit a new request.",
      ...explainRevert(decoded.errorName),
    });
  } catch {
    return undefined;
  }
}
