// Tables of the Ledger Index. Readers use them through the views schema (snake_case columns).
// Every table is keyed by its chain first (chainId): one index serves several chains, and the same address (a
// CREATE2-deployed root, a counterfactual smart wallet) may exist on each. Readers see one chain through its views.
import { type BuildExtraConfigColumns, index, onchainTable, type PgColumnsBuilders, primaryKey } from "ponder";
import type { FeatureValues } from "./domain/features/feature-params.ts";

export const system = onchainTable(
  "system",
  (t) => ({
    id: t.hex().notNull(),
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
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }) }),
);

export const token = onchainTable(
  "token",
  (t) => ({
    id: t.hex().notNull(),
    chainId: t.integer().notNull(),
    system: t.hex().notNull(),
    tokenFactory: t.hex().notNull(),
    type: t.text().notNull(),
    name: t.text().notNull(),
    symbol: t.text().notNull(),
    decimals: t.integer().notNull(),
    totalSupply: t.bigint().notNull(),
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
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }), systemIdx: index().on(table.system) }),
);

/** One feature instance attached to a token, with its current parameters. */
export const tokenFeature = onchainTable(
  "token_feature",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The feature contract's address. */
    id: t.hex().notNull(),
    token: t.hex().notNull(),
    featureId: t.text().notNull(),
    /** The ABI-encoded parameters as the contract holds them. */
    params: t.hex().notNull(),
    /** The params decoded by name, raw (domain/features/feature-params.ts FeatureValues); {} when undecodable. */
    decodedParams: t.json().$type<FeatureValues>().notNull(),
    position: t.integer().notNull(),
    attachedAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }), tokenIdx: index().on(table.token) }),
);

export const tokenBalance = onchainTable(
  "token_balance",
  (t) => ({
    chainId: t.integer().notNull(),
    token: t.hex().notNull(),
    account: t.hex().notNull(),
    value: t.bigint().notNull(),
    /** Partially frozen amount; available = value - frozen. */
    frozen: t.bigint().notNull(),
    /** The whole address is frozen. */
    isFrozen: t.boolean().notNull(),
    lastUpdatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.token, table.account] }),
    accountIdx: index().on(table.account),
  }),
);

/** Issuer metadata of a token (key → value). */
export const tokenMetadata = onchainTable(
  "token_metadata",
  (t) => ({
    chainId: t.integer().notNull(),
    token: t.hex().notNull(),
    key: t.text().notNull(),
    value: t.text().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.token, table.key] }) }),
);

/** ERC-1643 documents of a token; `name` is the bytes32 document name. */
export const tokenDocument = onchainTable(
  "token_document",
  (t) => ({
    chainId: t.integer().notNull(),
    token: t.hex().notNull(),
    name: t.hex().notNull(),
    uri: t.text().notNull(),
    documentHash: t.hex().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.token, table.name] }) }),
);

/** A compliance module instance registered in a system's compliance engine. */
export const complianceModule = onchainTable(
  "compliance_module",
  (t) => ({
    chainId: t.integer().notNull(),
    id: t.hex().notNull(),
    compliance: t.hex().notNull(),
    typeId: t.text().notNull(),
    moduleSetVersion: t.integer().notNull(),
    registered: t.boolean().notNull(),
    registeredAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }), complianceIdx: index().on(table.compliance) }),
);

/** A compliance module in force on a token, with the token's parameters for it. */
export const tokenComplianceModule = onchainTable(
  "token_compliance_module",
  (t) => ({
    chainId: t.integer().notNull(),
    token: t.hex().notNull(),
    module: t.hex().notNull(),
    typeId: t.text().notNull(),
    params: t.hex().notNull(),
    addedAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.token, table.module] }),
    tokenIdx: index().on(table.token),
  }),
);

/**
 * Who holds which role of a system's access manager (RoleGranted / RoleRevoked after the system's creation; the
 * grants its initialisation makes precede SystemContractsCreated and are not recorded).
 */
export const accessControlRoleMember = onchainTable(
  "access_control_role_member",
  (t) => ({
    chainId: t.integer().notNull(),
    /** Access manager, role and account. */
    id: t.text().notNull(),
    accessManager: t.hex().notNull(),
    system: t.hex().notNull(),
    role: t.hex().notNull(),
    account: t.hex().notNull(),
    active: t.boolean().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.id] }),
    systemIdx: index().on(table.system, table.role),
  }),
);

/**
 * Every role an account holds (or held) on a platform contract with its own access control: a system's access
 * manager and each token. Unlike access_control_role_member, it also keeps the grants made while the contract was
 * being initialised (before its system is known), so the roles a system or token starts with are listed too.
 */
export const roleAssignment = onchainTable(
  "role_assignment",
  (t) => ({
    chainId: t.integer().notNull(),
    /** Contract, role and account. */
    id: t.text().notNull(),
    contract: t.hex().notNull(),
    role: t.hex().notNull(),
    account: t.hex().notNull(),
    /** false once revoked (a later grant makes it true again, with its own grantedAt, grantedBy and hash). */
    active: t.boolean().notNull(),
    grantedAt: t.bigint().notNull(),
    grantedBy: t.hex().notNull(),
    transactionHash: t.hex().notNull(),
    /** The latest grant's event id (its checkpoint): sorting on it keeps the chain's order. */
    ordinal: t.text().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.id] }),
    contractIdx: index().on(table.contract),
    accountIdx: index().on(table.account),
  }),
);

/** Every contract of a system by role (from the root's SystemContractsCreated): the system a registry belongs to. */
export const systemContract = onchainTable(
  "system_contract",
  (t) => ({
    chainId: t.integer().notNull(),
    id: t.hex().notNull(),
    system: t.hex().notNull(),
    /** The field of ISystemFactory.SystemContracts, e.g. trustedIssuersRegistry. */
    role: t.text().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }), systemIdx: index().on(table.system) }),
);

/** An identity a system's identity factory created (the root's IdentityCreated), for a wallet or a contract. */
export const identity = onchainTable(
  "identity",
  (t) => ({
    id: t.hex().notNull(),
    chainId: t.integer().notNull(),
    system: t.hex().notNull(),
    /** The wallet, or the contract (isContract), the identity belongs to. */
    account: t.hex().notNull(),
    isContract: t.boolean().notNull(),
    /** Wallets the system's own identity registry maps to this identity: registered when above zero, else pending. */
    registrations: t.integer().notNull(),
    /** ISO 3166-1 numeric country of the latest registration; null while pending. */
    country: t.integer(),
    createdBy: t.hex().notNull(),
    deployedInTransaction: t.hex().notNull(),
    createdAt: t.bigint().notNull(),
    /** Block timestamp of the identity's latest creation, registration or claim event. */
    lastActivityAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.id] }),
    systemIdx: index().on(table.system, table.isContract),
    accountIdx: index().on(table.account),
  }),
);

/** A wallet's entry in an identity registry (IdentityRegistered until IdentityRemoved). */
export const identityRegistration = onchainTable(
  "identity_registration",
  (t) => ({
    chainId: t.integer().notNull(),
    registry: t.hex().notNull(),
    wallet: t.hex().notNull(),
    system: t.hex().notNull(),
    identity: t.hex().notNull(),
    country: t.integer().notNull(),
    registeredAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.registry, table.wallet] }),
    identityIdx: index().on(table.identity),
  }),
);

/** A claim attached to an identity (ClaimAdded until ClaimRemoved); revoked once its issuer revoked its signature. */
export const identityClaim = onchainTable(
  "identity_claim",
  (t) => ({
    identity: t.hex().notNull(),
    claimId: t.hex().notNull(),
    chainId: t.integer().notNull(),
    system: t.hex().notNull(),
    topic: t.bigint().notNull(),
    scheme: t.bigint().notNull(),
    issuer: t.hex().notNull(),
    signature: t.hex().notNull(),
    data: t.hex().notNull(),
    uri: t.text().notNull(),
    /** active or revoked. */
    status: t.text().notNull(),
    issuedAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.identity, table.claimId] }),
    topicIdx: index().on(table.chainId, table.topic, table.status),
  }),
);

/** Which claim carries a signature of an issuer: a revocation by signature alone finds its claim here. */
export const claimSignature = onchainTable(
  "claim_signature",
  (t) => ({
    chainId: t.integer().notNull(),
    issuer: t.hex().notNull(),
    signatureHash: t.hex().notNull(),
    identity: t.hex().notNull(),
    claimId: t.hex().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.issuer, table.signatureHash] }) }),
);

/** The columns every table of logged events starts with: one row a log, in chain order, in its system's feeds. */
const loggedEvent = (t: PgColumnsBuilders) => ({
  chainId: t.integer().notNull(),
  /** Transaction hash and log index. */
  id: t.text().notNull(),
  /** Ponder's event id: chain order. */
  ordinal: t.text().notNull(),
  /**
   * The system whose feeds hold the event (CHAIN_SCOPE: none's, e.g. user operations); null for a token's events
   * emitted while it was initialised, before its system announced it: in the token's event log, in no feed.
   */
  system: t.hex(),
  /** The token whose event log holds the event (emitted by it, one of its features or its compliance engine). */
  logToken: t.hex(),
});

/** The claim event log of an identity: ClaimAdded, ClaimChanged, ClaimRemoved (the identity's), ClaimRevoked (its issuer's). */
export const identityClaimEvent = onchainTable(
  "identity_claim_event",
  (t) => ({
    ...loggedEvent(t),
    identity: t.hex().notNull(),
    eventName: t.text().notNull(),
    topic: t.bigint().notNull(),
    claimId: t.hex().notNull(),
    issuer: t.hex().notNull(),
    emitter: t.hex().notNull(),
    sender: t.hex().notNull(),
    values: t.json().$type<{ name: string; value: string }[]>().notNull(),
    blockNumber: t.bigint().notNull(),
    blockTimestamp: t.bigint().notNull(),
    transactionHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.id] }),
    identityIdx: index().on(table.identity, table.blockTimestamp),
  }),
);

/** A claim issuer a system's trusted issuers registry trusts, with its topics (active until removed). */
export const trustedIssuer = onchainTable(
  "trusted_issuer",
  (t) => ({
    chainId: t.integer().notNull(),
    registry: t.hex().notNull(),
    issuer: t.hex().notNull(),
    system: t.hex().notNull(),
    claimTopics: t.bigint().array().notNull(),
    active: t.boolean().notNull(),
    addedAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.registry, table.issuer] }),
    systemIdx: index().on(table.system),
  }),
);

/** A claim topic of a system's topic scheme registry: topicId = uint256(keccak256(name)) (active until removed). */
export const topicScheme = onchainTable(
  "topic_scheme",
  (t) => ({
    chainId: t.integer().notNull(),
    registry: t.hex().notNull(),
    topicId: t.bigint().notNull(),
    system: t.hex().notNull(),
    name: t.text().notNull(),
    signature: t.text().notNull(),
    active: t.boolean().notNull(),
    registeredAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.registry, table.topicId] }),
    systemIdx: index().on(table.system),
  }),
);

/**
 * A system's counters (domain/statistics/metrics.ts) as changes per hour: a counter's value at a time is the sum of its
 * changes in earlier hours, so snapshots and time series are sums over few rows, and a reorg rolls them back.
 */
export const systemStatHour = onchainTable(
  "system_stat_hour",
  (t) => ({
    chainId: t.integer().notNull(),
    system: t.hex().notNull(),
    metric: t.text().notNull(),
    /** Start of the hour, unix seconds. */
    hour: t.bigint().notNull(),
    delta: t.integer().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.system, table.metric, table.hour] }) }),
);

// ---- activity ----

/**
 * One event of the participant and account feeds (spec: Activity event). `sender` is the contract-level trigger,
 * `displaySender` the address that authorised the operation: the transaction's signer, or for relayed operations
 * the meta-transaction signer (forwarder) or the smart account (user operation).
 */
export const activityEvent = onchainTable(
  "activity_event",
  (t) => ({
    ...loggedEvent(t),
    eventName: t.text().notNull(),
    emitter: t.hex().notNull(),
    sender: t.hex().notNull(),
    displaySender: t.hex().notNull(),
    /** The account the event is about (an identity's wallet, a registered wallet), when it names one. */
    account: t.hex(),
    token: t.hex(),
    /**
     * The event's first address in both feeds but its sender and its log's token (a mint's holder, a transfer's
     * receiver): its feeds read the event by this column; its other addresses have links (src/activity-links.ts).
     */
    party: t.hex(),
    metaTxSigner: t.hex(),
    /** forwarder (ERC-2771) or user-operation (ERC-4337); null for direct transactions. */
    relayerKind: t.text(),
    relayer: t.hex(),
    userOpHash: t.hex(),
    paymaster: t.hex(),
    /** Wei, for user operations. */
    actualGasCost: t.bigint(),
    /**
     * The involved addresses and the event's parameters by name, as flat text (domain/activity/event-columns.ts):
     * Ponder deep-copies every row holding an array or json value at each write, a flat row is spread.
     */
    involved: t.text().notNull(),
    values: t.text().notNull(),
    blockNumber: t.bigint().notNull(),
    blockTimestamp: t.bigint().notNull(),
    transactionHash: t.hex().notNull(),
    /** The log's index in its block. */
    logIndex: t.integer().notNull(),
    /** The log's index within its transaction (the spec's txIndex), from the transaction's receipt. */
    txIndex: t.integer().notNull(),
  }),
  // blockIdx: the webhook lifecycle reads the newest blocks' events (host/events/index-lifecycle.ts).
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.id] }),
    // Also the system's account feed in the feed's order (index-only for its total and eventName facet).
    systemIdx: index().on(table.chainId, table.system, table.blockTimestamp, table.ordinal, table.eventName),
    blockIdx: index().on(table.blockNumber),
    logTokenIdx: index().on(table.logToken, table.blockNumber),
    // A token's event log and its feeds (no links for its own log's events) in their order, newest first; the system
    // last: a token's events are all of one system, which the feeds name.
    logTokenFeedIdx: index().on(
      table.chainId,
      table.logToken,
      table.blockTimestamp,
      table.ordinal,
      table.eventName,
      table.system,
    ),
    // An address's feeds read the events it sent (no links for them) in the feed's order; log_token for the filter
    // that leaves the events of its own log to logTokenFeedIdx's range.
    senderFeedIdx: index().on(
      table.chainId,
      table.sender,
      table.system,
      table.blockTimestamp,
      table.ordinal,
      table.eventName,
      table.logToken,
    ),
    // An address's feeds read the events whose party it is (no link for them) in the feed's order.
    partyFeedIdx: index().on(
      table.chainId,
      table.party,
      table.system,
      table.blockTimestamp,
      table.ordinal,
      table.eventName,
    ),
  }),
);

/**
 * Which addresses an activity event belongs to, one row per distinct address: `forParticipant` when it is the
 * sender, account, emitter, token, an involved address or the meta-transaction signer; `forAccount` when it is the
 * sender, account, emitter, token, the system or an involved address (the spec's two matching rules). Not written
 * for the event's sender, its log's token nor its party (the feeds read those from activity_event), and for the
 * system only where the event names it (its account feed reads every event of the system).
 * The event's sort, filter and facet columns are copied here, so that a feed's page, total and facets are read from
 * the links alone; only the page's events are read from activity_event.
 */
export const activityLink = onchainTable(
  "activity_link",
  (t) => ({
    chainId: t.integer().notNull(),
    address: t.hex().notNull(),
    eventId: t.text().notNull(),
    system: t.hex().notNull(),
    forParticipant: t.boolean().notNull(),
    forAccount: t.boolean().notNull(),
    blockTimestamp: t.bigint().notNull(),
    ordinal: t.text().notNull(),
    eventName: t.text().notNull(),
    blockNumber: t.bigint().notNull(),
    transactionHash: t.hex().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.address, table.eventId] }),
    // A page newest first (timestamp, then ordinal) is the index's order, so PostgreSQL reads the page's links and no
    // more; the total and the eventName facet of a feed without filters are index-only scans.
    // Led by the chain: readers see one chain through views that filter on it (else no index-only scan, and the
    // primary key's range wins, with a sort).
    feedIdx: index().on(
      table.chainId,
      table.address,
      table.system,
      table.blockTimestamp,
      table.ordinal,
      table.eventName,
      table.forParticipant,
      table.forAccount,
    ),
  }),
);

// ---- account abstraction (ERC-4337) ----
// Chain facts of the manifest's EntryPoint and smart wallets' factory, of no one system (their activity events carry
// domain/activity/chain-scope.ts's CHAIN_SCOPE as their system).

/** A user operation the EntryPoint ran (its UserOperationEvent), keyed by its hash. */
export const userOperation = onchainTable(
  "user_operation",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The userOpHash. */
    id: t.hex().notNull(),
    entryPoint: t.hex().notNull(),
    /** The smart account. */
    sender: t.hex().notNull(),
    /** The paymaster that paid for it; null when the account paid from its own deposit. */
    paymaster: t.hex(),
    nonce: t.bigint().notNull(),
    success: t.boolean().notNull(),
    /** Wei, charged to the paymaster's (or the account's) deposit. */
    actualGasCost: t.bigint().notNull(),
    actualGasUsed: t.bigint().notNull(),
    /** The bundle transaction's sender. */
    bundler: t.hex().notNull(),
    /** The reverted call's data (UserOperationRevertReason), when its execution reverted. */
    revertReason: t.hex(),
    transactionHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    blockTimestamp: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.id] }),
    senderIdx: index().on(table.sender, table.blockNumber),
    paymasterIdx: index().on(table.paymaster, table.blockNumber),
    transactionIdx: index().on(table.transactionHash),
  }),
);

/** A UserOperationRevertReason: an operation whose execution reverted (its UserOperationEvent follows it). */
export const userOperationRevertReason = onchainTable(
  "user_operation_revert_reason",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The userOpHash. */
    id: t.hex().notNull(),
    sender: t.hex().notNull(),
    nonce: t.bigint().notNull(),
    revertReason: t.hex().notNull(),
    transactionHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }) }),
);

/**
 * An account's (a paymaster's or a smart account's) gas deposit in the EntryPoint: the last Deposited total, less
 * Withdrawn amounts and the actualGasCost of each operation it paid for (the EntryPoint emits no event for those).
 */
export const entryPointDeposit = onchainTable(
  "entry_point_deposit",
  (t) => ({
    chainId: t.integer().notNull(),
    entryPoint: t.hex().notNull(),
    account: t.hex().notNull(),
    /** Wei. */
    deposit: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.entryPoint, table.account] }) }),
);

/** A weighted-multisig smart account the manifest's factory created (AccountCreated), with its current threshold. */
export const smartWallet = onchainTable(
  "smart_wallet",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The account's address. */
    id: t.hex().notNull(),
    factory: t.hex().notNull(),
    /** The weight sum a user operation's signatures must reach (uint64). */
    threshold: t.bigint().notNull(),
    /** The sum of the signers' weights. */
    totalWeight: t.bigint().notNull(),
    signerCount: t.integer().notNull(),
    salt: t.bigint().notNull(),
    /** The creating transaction's sender (a bundler when an operation's initCode deployed it). */
    createdBy: t.hex().notNull(),
    deployedInTransaction: t.hex().notNull(),
    createdAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }) }),
);

/** A signer of a smart wallet with its weight (SignerAdded until SignerRemoved). */
export const smartWalletSigner = onchainTable(
  "smart_wallet_signer",
  (t) => ({
    chainId: t.integer().notNull(),
    wallet: t.hex().notNull(),
    signer: t.hex().notNull(),
    /** uint64. */
    weight: t.bigint().notNull(),
    addedAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.wallet, table.signer] }),
    signerIdx: index().on(table.signer),
  }),
);

// ---- directory and addons ----
// Keyed by the emitting contract (directory or registry). `system` is null until the root's SystemContractsCreated:
// a system's creation emits its directory entries and first types before that event, in the same transaction.

/** A system directory's entry (DirectoryEntrySet): the spec's field name and its address; address 0 deletes it. */
export const directoryEntry = onchainTable(
  "directory_entry",
  (t) => ({
    chainId: t.integer().notNull(),
    directory: t.hex().notNull(),
    /** The spec's field name (domain/directory/directory-keys.ts), e.g. forwarder, addonRegistry. */
    key: t.text().notNull(),
    system: t.hex(),
    value: t.hex().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.directory, table.key] }),
    systemIdx: index().on(table.system),
  }),
);

/** The columns every registry's type table shares: a type is keyed by its registry and id (registered until removed). */
const registeredType = (t: PgColumnsBuilders) => ({
  chainId: t.integer().notNull(),
  registry: t.hex().notNull(),
  typeId: t.hex().notNull(),
  system: t.hex(),
  name: t.text().notNull(),
  registeredAt: t.bigint().notNull(),
  isExperimental: t.boolean().notNull(),
});
const registeredTypeKeys = (table: BuildExtraConfigColumns<ReturnType<typeof registeredType>>) => ({
  pk: primaryKey({ columns: [table.chainId, table.registry, table.typeId] }),
  systemIdx: index().on(table.system),
});

/** A token type of a system's token factory registry; `typeId` is keccak256 of the name. */
export const tokenType = onchainTable(
  "token_type",
  (t) => ({
    ...registeredType(t),
    implementation: t.hex().notNull(),
    factoryImplementation: t.hex().notNull(),
    /** The type's token factory (a clone of factoryImplementation). */
    factory: t.hex().notNull(),
  }),
  registeredTypeKeys,
);

/** A compliance module type of a system's compliance module registry; `name` is the module's own typeId() string. */
export const complianceModuleType = onchainTable(
  "compliance_module_type",
  (t) => ({ ...registeredType(t), implementation: t.hex().notNull() }),
  registeredTypeKeys,
);

/** An addon type of a system's addon registry; `name` is the spec's type id string, e.g. xvp-settlement. */
export const addonType = onchainTable(
  "addon_type",
  (t) => ({
    ...registeredType(t),
    /** unknown, factory or singleton (domain/directory/addon-kinds.ts). */
    kind: t.text().notNull(),
    factoryImplementation: t.hex().notNull(),
    /** Factories only; null otherwise. */
    instanceImplementation: t.hex(),
  }),
  registeredTypeKeys,
);

/** An addon a system's addon registry created (the spec's addon factory), until removed. */
export const addonFactory = onchainTable(
  "addon_factory",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The addon's address (also its account). */
    id: t.hex().notNull(),
    registry: t.hex().notNull(),
    system: t.hex(),
    name: t.text().notNull(),
    /** keccak256 of typeName. */
    typeHash: t.hex().notNull(),
    /** The spec's typeId string, e.g. xvp-settlement. */
    typeName: t.text().notNull(),
    kind: t.text().notNull(),
    /** Singletons only. */
    systemAddonImplementation: t.hex(),
    factoryImplementation: t.hex().notNull(),
    /** Factories only. */
    instanceImplementation: t.hex(),
    version: t.bigint().notNull(),
    deployedInTransaction: t.hex().notNull(),
    createdAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.id] }),
    systemIdx: index().on(table.system),
    registryIdx: index().on(table.registry),
  }),
);

/** Which catalogue table a row written before its system was known lives in, and its key without the chain. */
export interface SystemlessRow {
  table: "directoryEntry" | "tokenType" | "complianceModuleType" | "addonType" | "addonFactory";
  key: Record<string, string>;
}

/**
 * The catalogue rows a system's contract wrote before the root's SystemContractsCreated named their system: that
 * event sets their `system` and drops this row (src/catalogue-system.ts). A list kept through the store API: a raw
 * SQL write makes Ponder flush and forget its whole row cache, after which every upsert of the run read the database.
 */
export const systemlessRows = onchainTable(
  "systemless_rows",
  (t) => ({
    chainId: t.integer().notNull(),
    contract: t.hex().notNull(),
    rows: t.json().$type<SystemlessRow[]>().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.contract] }) }),
);

/** An instance an addon (factory) created, announced by the root's AddonInstanceCreated: its type's own table
 * (src/addons/) holds what the type knows. */
export const addonInstance = onchainTable(
  "addon_instance",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The instance's address. */
    id: t.hex().notNull(),
    system: t.hex().notNull(),
    /** The addon (factory) that created it. */
    addon: t.hex().notNull(),
    /** The spec's typeId string, e.g. xvp-settlement. */
    typeName: t.text().notNull(),
    /** Who called the factory. */
    creator: t.hex().notNull(),
    deployedInTransaction: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    createdAt: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.id] }),
    systemTypeIdx: index().on(table.system, table.typeName),
  }),
);

/** A column as an index or a primary key names it. */
type IndexedColumn = Parameters<typeof primaryKey>[0]["columns"][number];

/** An exchange-rate table's keys: its id, and its rows found by system and currency pair. */
const ratePairKeys = <T extends Record<"chainId" | "id" | "system" | "baseCurrency" | "quoteCurrency", IndexedColumn>>(
  table: T,
) => ({
  pk: primaryKey({ columns: [table.chainId, table.id] }),
  pairIdx: index().on(table.system, table.baseCurrency, table.quoteCurrency),
});

/** A system's exchange rate feed for one currency pair (the root's ExchangeRateFeedCreated), with its latest round. */
export const exchangeRateFeed = onchainTable(
  "exchange_rate_feed",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The feed's address. */
    id: t.hex().notNull(),
    system: t.hex().notNull(),
    baseCurrency: t.text().notNull(),
    quoteCurrency: t.text().notNull(),
    decimals: t.integer().notNull(),
    /** The latest round (null before the first): answer raw, in `decimals` decimals. */
    latestRound: t.bigint(),
    latestAnswer: t.bigint(),
    /** AnswerUpdated's updatedAt: when the provider's rate took effect. */
    latestEffectiveAt: t.bigint(),
    /** The block time of the latest round. */
    latestUpdatedAt: t.bigint(),
    deployedInTransaction: t.hex().notNull(),
    createdAt: t.bigint().notNull(),
  }),
  ratePairKeys,
);

/** Every round of every feed (AnswerUpdated): the rate history. */
export const exchangeRateRound = onchainTable(
  "exchange_rate_round",
  (t) => ({
    chainId: t.integer().notNull(),
    /** `<feed>:<roundId>`. */
    id: t.text().notNull(),
    feed: t.hex().notNull(),
    system: t.hex().notNull(),
    baseCurrency: t.text().notNull(),
    quoteCurrency: t.text().notNull(),
    decimals: t.integer().notNull(),
    roundId: t.bigint().notNull(),
    answer: t.bigint().notNull(),
    effectiveAt: t.bigint().notNull(),
    blockTimestamp: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    transactionHash: t.hex().notNull(),
  }),
  ratePairKeys,
);

// ---- external tokens ----

/**
 * A token a system's external token registry registered (ExternalTokenRegistered), until unregistered. Metadata,
 * interfaces, supply and pause state come from the registration event; supply and pause then follow the token's
 * own Transfer (mints and burns), Paused and Unpaused events.
 */
export const externalToken = onchainTable(
  "external_token",
  (t) => ({
    chainId: t.integer().notNull(),
    registry: t.hex().notNull(),
    token: t.hex().notNull(),
    system: t.hex().notNull(),
    /** The registration's tokenType (bond, equity, fund, stablecoin, deposit, cryptocurrency, other, ...). */
    tokenType: t.text().notNull(),
    name: t.text().notNull(),
    symbol: t.text().notNull(),
    /** 18 when the token has no decimals() (decided by the registry). */
    decimals: t.integer().notNull(),
    totalSupply: t.bigint().notNull(),
    /** false for a token without paused() (a token that never paused counts as active). */
    paused: t.boolean().notNull(),
    /** ERC20, ERC3643, SMART: what the registry detected at registration. */
    detectedInterfaces: t.text().array().notNull(),
    registeredBy: t.hex().notNull(),
    registeredAt: t.bigint().notNull(),
    registeredInTransaction: t.hex().notNull(),
    /** The registration event's checkpoint: orders registrations of one block (ties of registeredAt) as the chain did. */
    ordinal: t.text().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.registry, table.token] }),
    systemIdx: index().on(table.system),
    tokenIdx: index().on(table.token),
  }),
);

/** The registries holding an external token, which its own events update (kept for the store API, as above). */
export const externalTokenRegistries = onchainTable(
  "external_token_registries",
  (t) => ({
    chainId: t.integer().notNull(),
    token: t.hex().notNull(),
    registries: t.hex().array().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.token] }) }),
);

// --- token-sale add-on (plugins/token-sales) ---

/** A token sale (TokenSaleFactory's TokenSaleCreated), with its running totals from the sale's own events. */
export const tokenSale = onchainTable(
  "token_sale",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The sale's address. */
    id: t.hex().notNull(),
    system: t.hex().notNull(),
    /** Takes the proceeds: the creator, until it hands the seat over (TokenSaleIssuerTransferred). */
    issuer: t.hex().notNull(),
    /** Where buyers' tokens come from (its allowance to the sale): the issuer at creation, for good. */
    tokenSource: t.hex().notNull(),
    token: t.hex().notNull(),
    paymentAsset: t.hex().notNull(),
    /** Payment units per token unit, 18-decimal fixed point. */
    priceWad: t.bigint().notNull(),
    hardCap: t.bigint().notNull(),
    softCap: t.bigint().notNull(),
    /** Unix seconds. */
    startDate: t.bigint().notNull(),
    endDate: t.bigint().notNull(),
    sold: t.bigint().notNull(),
    raised: t.bigint().notNull(),
    /** Token units moved from the token source to buyers so far (what its allowance no longer needs to cover). */
    tokensWithdrawn: t.bigint().notNull(),
    proceedsWithdrawn: t.boolean().notNull(),
    deployedInTransaction: t.hex().notNull(),
    createdAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }), systemIdx: index().on(table.system) }),
);

/** One buyer's purchases in one sale, summed, and whether it took its tokens or its refund. */
export const tokenSalePurchase = onchainTable(
  "token_sale_purchase",
  (t) => ({
    chainId: t.integer().notNull(),
    sale: t.hex().notNull(),
    buyer: t.hex().notNull(),
    amount: t.bigint().notNull(),
    payment: t.bigint().notNull(),
    withdrawn: t.boolean().notNull(),
    refunded: t.boolean().notNull(),
    /** The first purchase's checkpoint: lists buyers in the order they first bought. */
    ordinal: t.text().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.sale, table.buyer] }),
    buyerIdx: index().on(table.buyer),
  }),
);

// ---- xvp settlements ----

/**
 * An XvP settlement (XvPSettlementFactory's XvPSettlementCreated, through the root's AddonInstanceCreated) and its
 * outcome: executed (XvPSettlementExecuted) or cancelled (XvPSettlementCancelled). Expiry is no event: the cutoff
 * passed without execution.
 */
export const xvpSettlement = onchainTable(
  "xvp_settlement",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The settlement's address. */
    id: t.hex().notNull(),
    system: t.hex().notNull(),
    creator: t.hex().notNull(),
    /** Unix seconds: execution is refused after it. */
    cutoff: t.bigint().notNull(),
    /** null without a hashlock. */
    hashlock: t.hex(),
    /** The legs' senders, in the contract's order (each must approve). */
    parties: t.hex().array().notNull(),
    /** Every sender and recipient (the activity feeds' involved accounts). */
    accounts: t.hex().array().notNull(),
    executedAt: t.bigint(),
    executedInTransaction: t.hex(),
    executor: t.hex(),
    /** The hashlock's preimage, public once executed. */
    secret: t.hex(),
    cancelledAt: t.bigint(),
    cancelledBy: t.hex(),
    deployedInTransaction: t.hex().notNull(),
    createdAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }), systemIdx: index().on(table.system) }),
);

/** A leg of a settlement, in the contract's order. */
export const xvpSettlementFlow = onchainTable(
  "xvp_settlement_flow",
  (t) => ({
    chainId: t.integer().notNull(),
    settlement: t.hex().notNull(),
    position: t.integer().notNull(),
    asset: t.hex().notNull(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    amount: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.settlement, table.position] }),
    fromIdx: index().on(table.from),
  }),
);

/** A party's approval of its outgoing legs (XvPSettlementApproved / XvPSettlementApprovalRevoked). */
export const xvpSettlementApproval = onchainTable(
  "xvp_settlement_approval",
  (t) => ({
    chainId: t.integer().notNull(),
    settlement: t.hex().notNull(),
    party: t.hex().notNull(),
    approved: t.boolean().notNull(),
    /** The block time of the latest approval or revocation; null before either. */
    at: t.bigint(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.settlement, table.party] }) }),
);

// ---- fixed yield schedules (add-on) ----

/**
 * A fixed yield schedule (FixedYieldScheduleFactory's creation, announced by the root) with its terms and running
 * totals from its own events. `funded` (what it holds) = toppedUp - withdrawn - totalClaimed: a plain transfer of
 * the denomination asset to the schedule is not counted.
 */
export const fixedYieldSchedule = onchainTable(
  "fixed_yield_schedule",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The schedule's address. */
    id: t.hex().notNull(),
    system: t.hex().notNull(),
    owner: t.hex().notNull(),
    token: t.hex().notNull(),
    denominationAsset: t.hex().notNull(),
    rateBps: t.bigint().notNull(),
    /** DAILY, WEEKLY, MONTHLY, QUARTERLY or ANNUALLY. */
    interval: t.text().notNull(),
    intervalSeconds: t.bigint().notNull(),
    startDate: t.bigint().notNull(),
    endDate: t.bigint().notNull(),
    toppedUp: t.bigint().notNull(),
    withdrawn: t.bigint().notNull(),
    totalClaimed: t.bigint().notNull(),
    deployedInTransaction: t.hex().notNull(),
    createdAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.id] }), systemIdx: index().on(table.system) }),
);

/** What one holder claimed from one schedule (FixedYieldClaimed, summed). */
export const fixedYieldHolder = onchainTable(
  "fixed_yield_holder",
  (t) => ({
    chainId: t.integer().notNull(),
    schedule: t.hex().notNull(),
    holder: t.hex().notNull(),
    claimed: t.bigint().notNull(),
    /** The first period not yet claimed (the last claim's toPeriod). */
    nextPeriod: t.bigint().notNull(),
    lastClaimedAt: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.schedule, table.holder] }) }),
);
