// An executor mode other than the organisation's EOAs (`X-Executor: smart-wallet`): a plugin says who sends a
// participant's writes and which job executes them; the host queues the request as for an EOA.
import type { Address } from "viem";
import type { FoldableJob } from "../worker/keyed-jobs.ts";

export interface RequestExecutor {
  /**
   * The sender of the participant's writes on the chain (e.g. its smart wallet), checked before anything is queued;
   * `address` when the caller named one (smartWalletAddress). Throws an ApiError when there is none.
   */
  resolveSender(input: {
    organizationId: string;
    participantId: string;
    chainId: number;
    address?: string;
  }): Promise<Address>;
  /** The one job that executes a sender's queued requests (folded by its key, like an EOA's send run). */
  sendJob(chainId: number, sender: string): FoldableJob;
}
