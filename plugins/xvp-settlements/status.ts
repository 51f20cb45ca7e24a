// A settlement's status, from what the index holds and the chain's current time (expiry is no event).
import type { XVP_STATUSES } from "./schemas.ts";

export type XvpStatus = (typeof XVP_STATUSES)[number];

export interface StatusInput {
  executedAt: bigint | null;
  cancelledAt: bigint | null;
  /** Unix seconds. */
  cutoff: bigint;
  approvals: { approved: boolean }[];
}

/** `now`: the chain's latest block time (unix seconds); the contract refuses execution once it is past the cutoff. */
export function settlementStatus(s: StatusInput, now: bigint): XvpStatus {
  if (s.executedAt !== null) return "EXECUTED";
  if (s.cancelledAt !== null) return "CANCELLED";
  if (now > s.cutoff) return "EXPIRED";
  return s.approvals.every((a) => a.approved) ? "APPROVED" : "PENDING";
}
