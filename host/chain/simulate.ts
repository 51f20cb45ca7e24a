// Runs a write as eth_call (nothing is sent) and tells whether it would revert, with the revert decoded.
import { type Address, BaseError, ExecutionRevertedError, type Hex, type PublicClient, RawContractError } from "viem";
import { ApiError } from "../errors/api-error.ts";
import { type ContractError, decodeContractError } from "../mutations/contract-errors.ts";

export type Simulation =
  | { ok: true }
  /** `contractError` is absent when the revert carries no data the platform ABIs decode (e.g. a bare revert). */
  | { ok: false; contractError?: ContractError; message: string };

function isRevert(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(error.walk((e) => e instanceof ExecutionRevertedError || e instanceof RawContractError));
}

export async function simulateCall(
  client: PublicClient,
  call: { from: Address; to: Address; data: Hex },
): Promise<Simulation> {
  try {
    await client.call({ account: call.from, to: call.to, data: call.data });
    return { ok: true };
  } catch (error) {
    const contractError = decodeContractError(error);
    if (contractError) return { ok: false, contractError, message: contractError.message };
    if (isRevert(error)) return { ok: false, message: (error as BaseError).shortMessage };
    throw new ApiError("SERVICE_UNAVAILABLE", { message: "The chain could not run the check; retry" });
  }
}
