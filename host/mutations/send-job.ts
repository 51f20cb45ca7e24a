// The job that sends a sender's queued writes: an EOA's send run, or the job of the executor mode that sends for it
// (a smart wallet's); an executor mode this host does not run is refused.
import { ApiError } from "../errors/api-error.ts";
import type { FoldableJob } from "../worker/keyed-jobs.ts";
import type { RequestExecutor } from "./executors.ts";
import { sendJobSpec } from "./signer-jobs.ts";

export function sendJobFor(
  executors: ReadonlyMap<string, RequestExecutor>,
  executor: string,
  chainId: number,
  from: string,
): FoldableJob<object> {
  if (executor === "eoa") return sendJobSpec(chainId, from);
  const mode = executors.get(executor);
  if (!mode) throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", { details: { executor } });
  return mode.sendJob(chainId, from);
}
