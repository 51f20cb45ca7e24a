// Which part a failure says did not answer: the chain's node (a stall, a dropped connection, the request's deadline)
// or the database (refused, restarting, terminated). The one classification behind the REST answers (503
// SERVICE_UNAVAILABLE, http/error-handler.ts) and those of protocols with envelopes of their own (the bundler's).
import { isChainUnavailable } from "../chain/chain-unavailable.ts";
import { isDatabaseUnavailableCause } from "../db/outage.ts";

export type UnansweredDependency = "chain" | "database";

/** The part `error` (or one of its causes) says did not answer; undefined when the failure is the caller's own. */
export function unansweredDependency(error: unknown): UnansweredDependency | undefined {
  if (isChainUnavailable(error)) return "chain";
  // PostgreSQL killed or restarting (refused, 57P01/57P03, "Connection terminated"): the supervisor brings it back.
  if (isDatabaseUnavailableCause(error)) return "database";
  return undefined;
}
