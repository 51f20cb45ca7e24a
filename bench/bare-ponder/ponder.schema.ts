// One row per Transfer and a balance per account: the minimal equivalent of the platform's token event log and
// token_balance.
import { onchainTable } from "ponder";

export const transferEvent = onchainTable("transfer_event", (t) => ({
  id: t.text().primaryKey(),
  from: t.hex().notNull(),
  to: t.hex().notNull(),
  value: t.bigint().notNull(),
  blockNumber: t.bigint().notNull(),
  blockTimestamp: t.bigint().notNull(),
  transactionHash: t.hex().notNull(),
  logIndex: t.integer().notNull(),
}));

export const balance = onchainTable("balance", (t) => ({
  account: t.hex().primaryKey(),
  value: t.bigint().notNull(),
}));
