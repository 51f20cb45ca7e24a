// Tables of the Ledger Index. Readers use them through the views schema (snake_case columns).
import { index, onchainTable, primaryKey } from "ponder";

export const system = onchainTable("system", (t) => ({
  id: t.hex().primaryKey(),
  chainId: t.integer().notNull(),
  owner: t.hex().notNull(),
  tokenFactory: t.hex().notNull(),
  accessManager: t.hex().notNull(),
  compliance: t.hex().notNull(),
  identityRegistry: t.hex().notNull(),
  identityFactory: t.hex().notNull(),
  directory: t.hex().notNull(),
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
    /** The compliance engine the token consults; null when it has none. */
    compliance: t.hex(),
    /** Feature ids in attachment order (details in token_feature). */
    featureIds: t.text().array().notNull(),
    paused: t.boolean().notNull(),
    createdBy: t.hex().notNull(),
    deployedInTransaction: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    createdAt: t.bigint().notNull(),
  }),
  (table) => ({ systemIdx: index().on(table.system) }),
);

/** One feature instance attached to a token, with its current parameters. */
export const tokenFeature = onchainTable(
  "token_feature",
  (t) => ({
    /** The feature contract's address. */
    id: t.hex().primaryKey(),
    token: t.hex().notNull(),
    featureId: t.text().notNull(),
    /** The ABI-encoded parameters as the contract holds them. */
    params: t.hex().notNull(),
    /** The parameters in the API's JSON shape (see host/features/feature-params.ts). */
    config: t.json().$type<Record<string, unknown>>().notNull(),
    position: t.integer().notNull(),
    attachedAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ tokenIdx: index().on(table.token) }),
);

export const tokenBalance = onchainTable(
  "token_balance",
  (t) => ({
    token: t.hex().notNull(),
    account: t.hex().notNull(),
    value: t.bigint().notNull(),
    /** Partially frozen amount; available = value - frozen. */
    frozen: t.bigint().notNull(),
    /** The whole address is frozen. */
    isFrozen: t.boolean().notNull(),
    lastUpdatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.token, table.account] }), accountIdx: index().on(table.account) }),
);

export const tokenEvent = onchainTable(
  "token_event",
  (t) => ({
    id: t.text().primaryKey(),
    /** The token the event concerns. */
    token: t.hex().notNull(),
    /** The contract that emitted it (the token, one of its features, or its compliance engine). */
    emitter: t.hex().notNull(),
    eventName: t.text().notNull(),
    sender: t.hex().notNull(),
    involved: t.hex().array().notNull(),
    values: t.json().$type<{ name: string; value: string }[]>().notNull(),
    blockNumber: t.bigint().notNull(),
    blockTimestamp: t.bigint().notNull(),
    transactionHash: t.hex().notNull(),
    transactionIndex: t.integer().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({
    tokenIdx: index().on(table.token, table.blockNumber),
    senderIdx: index().on(table.sender),
  }),
);

/** Issuer metadata of a token (key → value). */
export const tokenMetadata = onchainTable(
  "token_metadata",
  (t) => ({
    token: t.hex().notNull(),
    key: t.text().notNull(),
    value: t.text().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.token, table.key] }) }),
);

/** ERC-1643 documents of a token; `name` is the bytes32 document name. */
export const tokenDocument = onchainTable(
  "token_document",
  (t) => ({
    token: t.hex().notNull(),
    name: t.hex().notNull(),
    uri: t.text().notNull(),
    documentHash: t.hex().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.token, table.name] }) }),
);

/** A compliance module instance registered in a system's compliance engine. */
export const complianceModule = onchainTable(
  "compliance_module",
  (t) => ({
    id: t.hex().primaryKey(),
    compliance: t.hex().notNull(),
    typeId: t.text().notNull(),
    moduleSetVersion: t.integer().notNull(),
    registered: t.boolean().notNull(),
    registeredAt: t.bigint().notNull(),
  }),
  (table) => ({ complianceIdx: index().on(table.compliance) }),
);

/** A compliance module in force on a token, with the token's parameters for it. */
export const tokenComplianceModule = onchainTable(
  "token_compliance_module",
  (t) => ({
    token: t.hex().notNull(),
    module: t.hex().notNull(),
    typeId: t.text().notNull(),
    params: t.hex().notNull(),
    addedAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.token, table.module] }), tokenIdx: index().on(table.token) }),
);
