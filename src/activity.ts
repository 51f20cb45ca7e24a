// Records an event in the activity feeds (activity_event) with its party, and links it to every other address either
// matching rule names.
import type { Context } from "ponder:registry";
import { activityEvent, activityLink } from "ponder:schema";
import type { Address } from "viem";
import { encodeInvolved, encodeValues } from "../domain/activity/event-columns.ts";
import { activityLinks, partyAndLinks } from "./activity-links.ts";
import { logIndexInTransaction, transactionLogs } from "./receipts.ts";
import type { LoggedEvent } from "./record-event.ts";
import { relayFromLogs, relayKindOf } from "./relay.ts";

export interface ActivityInput {
  /** null: in no feed (a token's event before its system announced it), so no links. */
  system: Address | null;
  /** The token whose event log holds it (src/record-event.ts). */
  logToken?: Address;
  eventName: string;
  /** The contract-level trigger (the event's sender, else the transaction's signer). */
  sender: Address;
  account?: Address | null;
  token?: Address | null;
  involved: Address[];
  values: Record<string, unknown>;
}

export async function recordActivity(context: Context, event: LoggedEvent, input: ActivityInput) {
  // A block's first transaction starts the block's logs, so its log index is its txIndex; any other transaction's
  // position, and a relayed call's completion event, need its receipt.
  const { transaction, log } = event;
  const relayKind = transaction.to ? relayKindOf(transaction.input) : null;
  const logs =
    relayKind || transaction.transactionIndex > 0 ? await transactionLogs(context.chain.id, event) : undefined;
  const relay =
    relayKind && logs ? relayFromLogs(relayKind, transaction.to!, transaction.from, log.logIndex, logs) : null;
  const txIndex = logs ? logIndexInTransaction(log.logIndex, logs) : log.logIndex;
  const id = `${transaction.hash}-${txIndex}`;
  const account = input.account ?? null;
  const token = input.token ?? null;
  const { party, links } = input.system === null ? { party: null, links: [] } : feedAddresses(input, event, relay);
  await context.db.insert(activityEvent).values({
    chainId: context.chain.id,
    id,
    ordinal: event.id,
    system: input.system,
    logToken: input.logToken ?? null,
    eventName: input.eventName,
    emitter: event.log.address,
    sender: input.sender,
    displaySender: relay?.metaTxSigner ?? event.transaction.from,
    account,
    token,
    party,
    metaTxSigner: relay?.metaTxSigner ?? null,
    relayerKind: relay?.relayerKind ?? null,
    relayer: relay?.relayer ?? null,
    userOpHash: relay?.userOpHash ?? null,
    paymaster: relay?.paymaster ?? null,
    actualGasCost: relay?.actualGasCost ?? null,
    involved: encodeInvolved(input.involved),
    values: encodeValues(input.values),
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    transactionHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    txIndex,
  });
  const { system } = input;
  if (system === null || links.length === 0) return;
  await context.db.insert(activityLink).values(
    links.map((link) => ({
      chainId: context.chain.id,
      ...link,
      eventId: id,
      system,
      blockTimestamp: event.block.timestamp,
      ordinal: event.id,
      eventName: input.eventName,
      blockNumber: event.block.number,
      transactionHash: event.transaction.hash,
    })),
  );
}

/**
 * The addresses whose feeds hold the event, as its party (kept on the event) and links. The system itself is linked
 * only where the event names it: its account feed (every event of the system) reads activity_event by system. Nor is
 * a token linked to the events of its own log, nor the sender (in both feeds) to the events it sent: their feeds read
 * activity_event by log_token and by sender. So most events need no link: one party (the holder), no row more.
 */
function feedAddresses(input: ActivityInput, event: LoggedEvent, relay: { metaTxSigner: Address } | null) {
  const common = [input.sender, event.log.address, ...input.involved];
  if (input.account) common.push(input.account);
  if (input.token) common.push(input.token);
  const unlinked = [input.sender.toLowerCase()];
  if (input.logToken) unlinked.push(input.logToken.toLowerCase());
  const links = activityLinks(
    { participant: relay ? [...common, relay.metaTxSigner] : common, account: common },
    unlinked,
  );
  return partyAndLinks(links);
}
