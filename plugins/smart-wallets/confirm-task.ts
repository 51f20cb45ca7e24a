// smart-wallets:confirm, one run per (chain, wallet) at a time: each CONFIRMING request of the wallet is followed in
// the pool until its operation is mined (COMPLETED, or FAILED with the execution's revert reason decoded) or dropped
// (FAILED). The run comes back while any is still pending.
import type { Hex } from "viem";
import { decodeRevertData } from "../../host/mutations/contract-errors.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { completeRequest } from "../../host/worker/complete-request.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { updateRequest } from "../../host/worker/deps.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";
import { confirmJob, WalletRunPayload } from "./jobs.ts";
import { walletsDb } from "./tables.ts";

const POLL_MS = 250;

export function confirmTask(ctx: PluginContext<"userOperationPool">) {
  return defineTask(WalletRunPayload, async ({ chainId, wallet }) => {
    const pool = ctx.userOperationPool;
    const confirming = await walletsDb(ctx.db.platform)
      .selectFrom("transactionRequests as r")
      .innerJoin("smartWalletOperations as o", "o.requestId", "r.id")
      .selectAll("r")
      .select("o.userOpHash")
      .where("r.status", "=", "CONFIRMING")
      .where("r.chainId", "=", chainId)
      .where("r.fromAddress", "=", wallet)
      .where("r.executor", "=", "smart-wallet")
      .execute();
    let pending = false;
    for (const { userOpHash, ...request } of confirming) {
      const outcome = await pool.outcome(userOpHash as Hex);
      if (!outcome || outcome.state === "pending") {
        pending = true;
        continue;
      }
      if (outcome.state === "dropped") {
        await updateRequest(
          ctx.db.platform,
          request.id,
          { status: "FAILED", subStatus: "USER_OPERATION_DROPPED", errorMessage: outcome.reason },
          "CONFIRMING",
        );
        continue;
      }
      const receipt = { ...outcome.receipt, logs: outcome.logs };
      const contractError = outcome.success ? undefined : decodeRevertData(outcome.reason);
      await completeRequest(
        ctx.db.platform,
        ctx.mutations,
        request,
        receipt,
        outcome.success
          ? undefined
          : {
              subStatus: "USER_OPERATION_REVERTED",
              errorMessage:
                contractError?.message ??
                `The user operation's execution reverted${outcome.reason === "0x" ? "" : ` (${outcome.reason})`}.`,
              ...(contractError ? { contractError } : {}),
            },
      );
    }
    if (pending) await addKeyedJob(ctx.db.platform, confirmJob(chainId, wallet, new Date(Date.now() + POLL_MS)));
  });
}
