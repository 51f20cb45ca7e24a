// Token domain events: supply, balances, freezes, pause, metadata, documents, compliance, and the token's event log.
// Every handler records its event in the token's event log (emitter = the log's address) besides its own table change.
import { type Context, ponder } from "ponder:registry";
import { token, tokenBalance, tokenDocument, tokenMetadata } from "ponder:schema";
import { type Address, zeroAddress } from "viem";
import { type LoggedEvent, recordTokenEvent } from "./record-event.ts";
import { recordRoleAssignment } from "./role-assignments.ts";

type BalanceRow = typeof tokenBalance.$inferSelect;
type TokenRow = typeof token.$inferSelect;

/**
 * The token's own event: emitter and token are the log's address; values are the event's parameters. `tokenRow`: the
 * token's row, when the handler just updated it.
 */
function record(
  context: Context,
  event: LoggedEvent & { args: Record<string, unknown> & { sender: Address } },
  eventName: string,
  involved: Address[],
  tokenRow?: TokenRow,
) {
  const input = { token: event.log.address, eventName, sender: event.args.sender, involved, values: event.args };
  return recordTokenEvent(context, event, input, tokenRow);
}

/**
 * Writes an account's balance row with `change` applied to its current state, or to a zero balance when it has none:
 * one upsert (a find first would read the row twice).
 */
function updateBalance(
  context: Context,
  tokenAddress: Address,
  account: Address,
  at: bigint,
  change: (before: BalanceRow) => Partial<Pick<BalanceRow, "value" | "frozen" | "isFrozen">>,
) {
  const fresh: BalanceRow = {
    ...{ chainId: context.chain.id, token: tokenAddress, account, lastUpdatedAt: at },
    ...{ value: 0n, frozen: 0n, isFrozen: false },
  };
  return context.db
    .insert(tokenBalance)
    .values({ ...fresh, ...change(fresh) })
    .onConflictDoUpdate((before) => ({ ...change(before), lastUpdatedAt: at }));
}

/**
 * Adds `delta` (may be negative) to an account's balance. The holder count is counted from the balances when read,
 * not kept as a counter here: a counter drifted through reorgs (test/index-reorg.property.test.ts).
 */
function moveBalance(context: Context, tokenAddress: Address, account: Address, delta: bigint, at: bigint) {
  return updateBalance(context, tokenAddress, account, at, (row) => ({ value: row.value + delta }));
}

/** The token's row after the change. */
function changeSupply(context: Context, tokenAddress: Address, delta: bigint) {
  return context.db
    .update(token, { chainId: context.chain.id, id: tokenAddress })
    .set((row) => ({ totalSupply: row.totalSupply + delta }));
}

// ---- supply and balances ----

ponder.on("Token:MintCompleted", async ({ event, context }) => {
  const { to, amount } = event.args;
  const tokenRow = await changeSupply(context, event.log.address, amount);
  await moveBalance(context, event.log.address, to, amount, event.block.timestamp);
  await record(context, event, "MintCompleted", [to], tokenRow);
});

ponder.on("Token:BurnCompleted", async ({ event, context }) => {
  const { from, amount } = event.args;
  const tokenRow = await changeSupply(context, event.log.address, -amount);
  await moveBalance(context, event.log.address, from, -amount, event.block.timestamp);
  await record(context, event, "BurnCompleted", [from], tokenRow);
});

ponder.on("Token:TransferCompleted", async ({ event, context }) => {
  const { from, to, amount } = event.args;
  await moveBalance(context, event.log.address, from, -amount, event.block.timestamp);
  await moveBalance(context, event.log.address, to, amount, event.block.timestamp);
  await record(context, event, "TransferCompleted", [from, to]);
});

ponder.on("Token:ForcedTransfer", async ({ event, context }) => {
  const { from, to, amount } = event.args;
  await moveBalance(context, event.log.address, from, -amount, event.block.timestamp);
  await moveBalance(context, event.log.address, to, amount, event.block.timestamp);
  await record(context, event, "ForcedTransfer", [from, to]);
});

// ---- pause and freezes ----

ponder.on("Token:Paused", async ({ event, context }) => {
  const tokenRow = await context.db
    .update(token, { chainId: context.chain.id, id: event.log.address })
    .set({ paused: true });
  await record(context, event, "Paused", [], tokenRow);
});

ponder.on("Token:Unpaused", async ({ event, context }) => {
  const tokenRow = await context.db
    .update(token, { chainId: context.chain.id, id: event.log.address })
    .set({ paused: false });
  await record(context, event, "Unpaused", [], tokenRow);
});

ponder.on("Token:AddressFrozen", async ({ event, context }) => {
  const { account, frozen } = event.args;
  await updateBalance(context, event.log.address, account, event.block.timestamp, () => ({ isFrozen: frozen }));
  await record(context, event, "AddressFrozen", [account]);
});

ponder.on("Token:TokensFrozen", async ({ event, context }) => {
  const { account, amount } = event.args;
  await updateBalance(context, event.log.address, account, event.block.timestamp, (row) => ({
    frozen: row.frozen + amount,
  }));
  await record(context, event, "TokensFrozen", [account]);
});

ponder.on("Token:TokensUnfrozen", async ({ event, context }) => {
  const { account, amount } = event.args;
  await updateBalance(context, event.log.address, account, event.block.timestamp, (row) => ({
    frozen: row.frozen - amount,
  }));
  await record(context, event, "TokensUnfrozen", [account]);
});

// ---- issuer metadata and documents ----

ponder.on("Token:MetadataSet", async ({ event, context }) => {
  const row = { chainId: context.chain.id, token: event.log.address, key: event.args.key, value: event.args.value };
  const updatedAt = event.block.timestamp;
  await context.db
    .insert(tokenMetadata)
    .values({ ...row, updatedAt })
    .onConflictDoUpdate({ value: row.value, updatedAt });
  await record(context, event, "MetadataSet", []);
});

ponder.on("Token:MetadataRemoved", async ({ event, context }) => {
  await context.db.delete(tokenMetadata, { chainId: context.chain.id, token: event.log.address, key: event.args.key });
  await record(context, event, "MetadataRemoved", []);
});

ponder.on("Token:DocumentUpdated", async ({ event, context }) => {
  const { name, uri, documentHash } = event.args;
  const updatedAt = event.block.timestamp;
  await context.db
    .insert(tokenDocument)
    .values({ chainId: context.chain.id, token: event.log.address, name, uri, documentHash, updatedAt })
    .onConflictDoUpdate({ uri, documentHash, updatedAt });
  await record(context, event, "DocumentUpdated", []);
});

ponder.on("Token:DocumentRemoved", async ({ event, context }) => {
  await context.db.delete(tokenDocument, {
    chainId: context.chain.id,
    token: event.log.address,
    name: event.args.name,
  });
  await record(context, event, "DocumentRemoved", []);
});

// ---- compliance ----

ponder.on("Token:ComplianceSet", async ({ event, context }) => {
  const compliance = event.args.compliance === zeroAddress ? null : event.args.compliance;
  // Emitted inside initialize, before the factory announces the token: its row (which carries the engine from
  // TokenCreated) may not exist yet.
  if (await context.db.find(token, { chainId: context.chain.id, id: event.log.address })) {
    await context.db.update(token, { chainId: context.chain.id, id: event.log.address }).set({ compliance });
  }
  await record(context, event, "ComplianceSet", event.args.compliance === zeroAddress ? [] : [compliance!]);
});

// The token's own roles (supply management, custodian, governance, emergency), its initial grants included.
ponder.on("Token:RoleGranted", ({ event, context }) => recordRoleAssignment(context, event, true));
ponder.on("Token:RoleRevoked", ({ event, context }) => recordRoleAssignment(context, event, false));
