// Tables of the Ledger Index. Readers use them through the views schema (snake_case columns).
import { index, onchainTable, primaryKey } from "ponder";

export const system = onchainTable("system", (t) => ({
  id: t.hex().primaryKey(),
  chainId: t.integer().notNull(),
  owner: t.hex().notNull(),
  tokenFactory: t.hex().notNull(),
  createdBy: t.hex().notNull(),
  deployedInTransaction: t.hex().notNull(),
  blockNumber: t.bigint().notNull(),
  createdAt: t.bigint().notNull(),
}));

export const token = onchainTable(
  "token",
  (t) => ({
    id: t.hex().primaryKey(),
    chainId: t.integer().notNull(),
    system: t.hex().notNull(),
    tokenFactory: t.hex().notNull(),
    type: t.text().notNull(),
    name: t.text().notNull(),
    symbol: t.text().notNull(),
    decimals: t.integer().notNull(),
    totalSupply: t.bigint().notNull(),
    holderCount: t.integer().notNull(),
    createdBy: t.hex().notNull(),
    deployedInTransaction: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    createdAt: t.bigint().notNull(),
  }),
  (table) => ({ systemIdx: index().on(table.system) }),
);

export const tokenBalance = onchainTable(
  "token_balance",
  (t) => ({
    token: t.hex().notNull(),
    account: t.hex().notNull(),
    value: t.bigint().notNull(),
    frozen: t.bigint().notNull(),
    isFrozen: t.boolean().notNull(),
    lastUpdatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.token, table.account] }), accountIdx: index().on(table.account) }),
);

export const tokenEvent = onchainTable(
  "token_event",
  (t) => ({
    id: t.text().primaryKey(),
    token: t.hex().notNull(),
    eventName: t.text().notNull(),
    sender: t.hex().notNull(),
    involved: t.hex().array().notNull(),
    values: t.json().$type<{ name: string; value: string }[]>().notNull(),
    blockNumber: t.bigint().notNull(),
    blockTimestamp: t.bigint().notNull(),
    transactionHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({ tokenIdx: index().on(table.token, table.blockNumber) }),
);
