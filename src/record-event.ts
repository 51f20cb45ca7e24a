// An event of the token event log, whichever contract emitted it (token, feature or compliance engine): one activity
// event, in the token's log and in its system's feeds (once the system announced the token).
import type { Context } from "ponder:registry";
import { token } from "ponder:schema";
import type { Address, Hex } from "viem";
import { recordActivity } from "./activity.ts";

export interface LoggedEvent {
  id: string;
  block: { hash: Hex; number: bigint; timestamp: bigint };
  transaction: { hash: Hex; transactionIndex: number; from: Address; to: Address | null; input?: Hex };
  log: { address: Address; logIndex: number };
}

/**
 * Records `event` against `token`; `values` are stringified (bigints as decimal raw units). `tokenRow`: the token's
 * row when the handler has just written it (else it is read here, for the system that files the event).
 */
export async function recordTokenEvent(
  context: Context,
  event: LoggedEvent,
  input: { token: Address; eventName: string; sender: Address; involved: Address[]; values: Record<string, unknown> },
  tokenRow?: { system: Address | null },
) {
  // Events a token emits while it is being initialised precede its TokenCreated: no system to file them under yet.
  const owner = tokenRow ?? (await context.db.find(token, { chainId: context.chain.id, id: input.token }));
  await recordActivity(context, event, { ...input, system: owner?.system ?? null, logToken: input.token });
}
