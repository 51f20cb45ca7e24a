// Token domain events: supply, balances and the token's event log.
import { ponder } from "ponder:registry";
import { token, tokenBalance, tokenEvent } from "ponder:schema";
import type { Address, Hex } from "viem";

type Db = Parameters<Parameters<typeof ponder.on<"Token:MintCompleted">>[1]>[0]["context"]["db"];

interface LoggedEvent {
  id: string;
  block: { number: bigint; timestamp: bigint };
  transaction: { hash: Hex; transactionIndex: number };
  log: { address: Address; logIndex: number };
}

/** Adds `delta` (may be negative) to an account's balance, keeping the holder count in step. */
async function moveBalance(db: Db, tokenAddress: Address, account: Address, delta: bigint, at: bigint) {
  const before = await db.find(tokenBalance, { token: tokenAddress, account });
  const value = (before?.value ?? 0n) + delta;
  await db
    .insert(tokenBalance)
    .values({ token: tokenAddress, account, value, frozen: 0n, isFrozen: false, lastUpdatedAt: at })
    .onConflictDoUpdate({ value, lastUpdatedAt: at });
  const wasHolder = (before?.value ?? 0n) > 0n;
  const isHolder = value > 0n;
  if (wasHolder !== isHolder) {
    await db.update(token, { id: tokenAddress }).set((row) => ({ holderCount: row.holderCount + (isHolder ? 1 : -1) }));
  }
}

async function recordEvent(
  db: Db,
  event: LoggedEvent,
  eventName: string,
  sender: Address,
  involved: Address[],
  values: Record<string, string>,
) {
  await db.insert(tokenEvent).values({
    id: event.id,
    token: event.log.address,
    emitter: event.log.address,
    eventName,
    sender,
    involved,
    values: Object.entries(values).map(([name, value]) => ({ name, value })),
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    transactionHash: event.transaction.hash,
    transactionIndex: event.transaction.transactionIndex,
    logIndex: event.log.logIndex,
  });
}

ponder.on("Token:MintCompleted", async ({ event, context }) => {
  const { sender, to, amount } = event.args;
  const at = event.block.timestamp;
  await context.db.update(token, { id: event.log.address }).set((row) => ({ totalSupply: row.totalSupply + amount }));
  await moveBalance(context.db, event.log.address, to, amount, at);
  await recordEvent(context.db, event, "MintCompleted", sender, [to], { sender, to, amount: amount.toString() });
});

ponder.on("Token:BurnCompleted", async ({ event, context }) => {
  const { sender, from, amount } = event.args;
  const at = event.block.timestamp;
  await context.db.update(token, { id: event.log.address }).set((row) => ({ totalSupply: row.totalSupply - amount }));
  await moveBalance(context.db, event.log.address, from, -amount, at);
  await recordEvent(context.db, event, "BurnCompleted", sender, [from], { sender, from, amount: amount.toString() });
});

ponder.on("Token:TransferCompleted", async ({ event, context }) => {
  const { sender, from, to, amount } = event.args;
  const at = event.block.timestamp;
  await moveBalance(context.db, event.log.address, from, -amount, at);
  await moveBalance(context.db, event.log.address, to, amount, at);
  await recordEvent(context.db, event, "TransferCompleted", sender, [from, to], {
    sender,
    from,
    to,
    amount: amount.toString(),
  });
});
