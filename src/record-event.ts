// One row of the token event log, whichever contract emitted it (token, feature or compliance engine), also recorded
// in the activity feeds.
import type { Context } from "ponder:registry";
import { token, tokenEvent } from "ponder:schema";
import type { Address, Hex } from "viem";
import { recordActivity } from "./activity.ts";

export interface LoggedEvent {
  id: string;
  block: { hash: Hex; number: bigint; timestamp: bigint };
  transaction: { hash: Hex; transactionIndex: number; from: Address; to: Address | null; input?: Hex };
  log: { address: Address; logIndex: number };
}

/** Records `event` against `token`; `values` are stringified (bigints as decimal raw units). */
export async function recordTokenEvent(
  context: Context,
  event: LoggedEvent,
  input: { token: Address; eventName: string; sender: Address; involved: Address[]; values: Record<string, unknown> },
) {
  await context.db.insert(tokenEvent).values({
    chainId: context.chain.id,
    id: event.id,
    token: input.token,
    emitter: event.log.address,
    eventName: input.eventName,
    sender: input.sender,
    involved: input.involved,
    values: Object.entries(input.values).map(([name, value]) => ({ name, value: String(value) })),
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    transactionHash: event.transaction.hash,
    transactionIndex: event.transaction.transactionIndex,
    logIndex: event.log.logIndex,
  });
  // Events a token emits while it is being initialised precede its TokenCreated: no system to file them under yet.
  const owner = await context.db.find(token, { chainId: context.chain.id, id: input.token });
  if (owner) await recordActivity(context, event, { ...input, system: owner.system });
}
