// Gas for each write of a batch not yet signed: its own limit, else the estimate with a margin; a write that would
// revert is marked FAILED with its contract error (and gets no limit, so it is not signed).
import type { Address, Hex } from "viem";
import { estimateGasForNextBlock, nextBlockTimestamp } from "../chain/estimate-gas.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { decodeContractError } from "../mutations/contract-errors.ts";
import { type ChainTaskDeps, updateRequest } from "./deps.ts";
import { gasWithMargin } from "./send-plan.ts";

export async function estimateBatch(
  { db, chain, custody }: Pick<ChainTaskDeps, "db" | "chain" | "custody">,
  rows: TransactionRequestRow[],
): Promise<Map<string, bigint>> {
  const gas = new Map<string, bigint>();
  const timestamp = rows.some((row) => row.gasLimit === null) ? await nextBlockTimestamp(chain.client) : 0n;
  await Promise.all(
    rows.map(async (row) => {
      if (row.gasLimit !== null) return gas.set(row.id, BigInt(row.gasLimit));
      const account = await custody.signer(row.organizationId, row.fromAddress as Address);
      try {
        const query = { to: row.toAddress as Address, data: row.data as Hex, value: BigInt(row.value) };
        gas.set(row.id, gasWithMargin(await estimateGasForNextBlock(chain.client, { account, ...query }, timestamp)));
      } catch (error) {
        const contractError = decodeContractError(error);
        await updateRequest(
          db,
          row.id,
          {
            status: "FAILED",
            subStatus: "EXECUTION_REVERTED",
            errorMessage: contractError?.message ?? (error as Error).message.split("\n")[0],
            contractError: contractError ?? null,
          },
          "QUEUED", // a request cancelled meanwhile stays CANCELLED
        );
      }
    }),
  );
  return gas;
}
