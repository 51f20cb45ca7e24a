// One row of the token event log, whichever contract emitted it (token, feature or compliance engine).
import type { Context } from "ponder:registry";
import { tokenEvent } from "ponder:schema";
import type { Address, Hex } from "viem";

export interface LoggedEvent {
  id: string;
  block: { number: bigint; timestamp: bigint };
  transaction: { hash: Hex; transactionIndex: number };
  log: { address: Address; logIndex: number };
}

/** Records `event` against `token`; `values` are stringified (bigints as decimal raw units). */
export async function recordTokenEvent(
  context: Context,
  event: LoggedEvent,
  input: { token: Address; eventName: string; sender: Address; involved: Address[]; values: Record<string, unknown> },
) {
  await context.db.insert(tokenEvent).values({
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
}
