// Row types of the platform's core tables (created by host/db/migrations.ts); plugins declare their own.
import type { ColumnType, Selectable } from "kysely";
import type { StoredAuthorization } from "../chain/authorizations.ts";
import type { TransactionSpeed } from "../chain/transaction-speed.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OrganizationsTable {
  id: string;
  name: string;
  defaultChainId: number;
  accountAbstractionEnabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** The executor of writes without X-Executor (the organisation's executor policy). */
  defaultExecutor: ColumnType<"eoa" | "smart-wallet", "eoa" | "smart-wallet" | undefined, "eoa" | "smart-wallet">;
  /** /readyz answers 200 only once its system is deployed and indexed on every served chain (the local one). */
  gatesReadiness: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: Timestamp;
}
export interface UsersTable {
  id: string;
  email: string;
  displayName: string;
  passwordHash: string | null;
  totpSecret: string | null;
  pincodeHash: string | null;
  /** Platform-level roles (host/auth/platform-roles.ts), granted by the CLI and the first start only. */
  platformRoles: ColumnType<string[], string[] | undefined, string[]>;
  createdAt: Timestamp;
}
export interface MembershipsTable {
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Timestamp;
}
export interface ApiKeysTable {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  keyHash: string;
  keyPrefix: string;
  scope: "read" | "read-write";
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Timestamp;
}
export interface SessionsTable {
  id: string;
  tokenHash: string;
  userId: string;
  organizationId: string | null;
  stage: "pending-2fa" | "active";
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Timestamp;
  lastSeenAt: Timestamp;
  expiresAt: Date;
  revokedAt: Date | null;
}
export interface CustodySeedsTable {
  organizationId: string;
  /** The organisation's bip32 seed sealed with the master key (`software`); null when its keys are in an HSM. */
  encryptedSeed: string | null;
  /** Changes once, from software to pkcs11, when the organisation's keys move to an HSM (host/custody/key-move.ts). */
  provider: ColumnType<"software" | "pkcs11", "software" | "pkcs11" | undefined, "pkcs11">;
  createdAt: Timestamp;
}
export interface WalletsTable {
  address: string;
  organizationId: string;
  userId: string | null;
  /**
   * `bundler`: the organisation's ERC-4337 bundler EOA (plugins/bundler), never a signer of its own writes.
   * `smart-wallet` (a participant's) and `paymaster` (the organisation's) are contracts with no key of their own
   * (derivationPath empty), recorded by plugins/smart-wallets.
   */
  kind: "eoa" | "bundler" | "smart-wallet" | "paymaster";
  derivationPath: string;
  /** What the key may sign (host/custody/classification.ts). */
  custodyClassification: ColumnType<"operational" | "treasury", "operational" | "treasury" | undefined>;
  /** The most one write of the key may move (wei or token base units, host/custody/classification.ts); null: no limit. */
  custodyMaxValue: ColumnType<bigint | null, bigint | string | null | undefined, bigint | string | null>;
  /** The provider holding the key; null: the organisation's (custodySeeds.provider). */
  custodyProvider: ColumnType<"software" | "pkcs11" | null, "software" | "pkcs11" | null | undefined>;
  /** The key that replaced this one when the organisation moved to an HSM; a replaced key is never chosen again. */
  successorAddress: ColumnType<string | null, string | null | undefined>;
  createdAt: Timestamp;
}
export interface SystemContracts {
  accessManager: string;
  tokenFactory: string;
  compliance: string;
  identityFactory: string;
  identityRegistry: string;
  identityRegistryStorage: string;
  trustedIssuersRegistry: string;
  trustedIssuersMetaRegistry: string;
  topicSchemeRegistry: string;
  directory: string;
  tokenFactoryRegistry: string;
  complianceModuleRegistry: string;
  addonRegistry: string;
  externalTokenRegistry: string;
  /** Absent from systems created before the exchange rate feeds existed. */
  exchangeRateFeedRegistry?: string;
}
export interface OrganizationChainsTable {
  organizationId: string;
  chainId: number;
  systemAddress: string | null;
  tokenFactoryAddress: string | null;
  /** The system's contracts by role (accessManager, compliance, identityRegistry, ...), once ready. */
  contracts: SystemContracts | null;
  status: "pending" | "ready" | "failed";
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
export interface TransactionRequestsTable {
  id: string;
  organizationId: string;
  kind: string;
  status: string;
  subStatus: string | null;
  chainId: number;
  fromAddress: string;
  toAddress: string;
  data: string;
  value: ColumnType<bigint, bigint | string, bigint | string>;
  nonce: number | null;
  rawTransaction: string | null;
  transactionHash: string | null;
  /** Earlier hashes of this write that a fee bump replaced (same nonce, so at most one is ever mined). */
  replacedHashes: ColumnType<string[], string[] | undefined, string[]>;
  /** Every hash the write was broadcast as, oldest first (kept by a trigger: migration 0028). */
  broadcastHashes: ColumnType<string[], never, never>;
  feeBumps: ColumnType<number, number | undefined, number>;
  blockNumber: bigint | null;
  result: unknown | null;
  errorMessage: string | null;
  contractError: unknown | null;
  createdBy: string;
  idempotencyKey: string | null;
  description: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  executor: ColumnType<string, string | undefined, string>;
  walletSelection: ColumnType<WalletSelection, string | undefined, string>;
  /** How much the write bids to be mined (X-Transaction-Speed): its fees and fee bumps (migration 0031). */
  speed: ColumnType<TransactionSpeed, TransactionSpeed | undefined, TransactionSpeed>;
  /** The gas the sender gave (not estimated, signed as given), or null: estimated when signed. */
  gasLimit: ColumnType<bigint | null, bigint | string | null | undefined, bigint | string | null>;
  /** Merged into `result` once mined (SubmitInput.resultContext). */
  resultContext: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** A job queued when the request ends (SubmitInput.wakeJob): a multi-step job's next run. */
  wakeJob: ColumnType<unknown | null, string | null | undefined, string | null>;
  /** EIP-7702 authorisations the write carries (SubmitInput.authorizationList): signed as a type-4 transaction. */
  authorizationList: ColumnType<StoredAuthorization[] | null, string | null | undefined, string | null>;
  /** When the finality watcher found its block final (host/worker/watch-finality.ts); null while it is watched. */
  finalizedAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** How many times a reorg removed its mined transaction and sent it back to CONFIRMING. */
  reorgs: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** How the caller chose the signing wallet (the spec's accountWalletId / smartWalletAddress / forceEoa). */
export interface WalletSelection {
  accountWalletId?: string;
  smartWalletAddress?: string;
  forceEoa?: boolean;
}

export interface SignerNoncesTable {
  chainId: number;
  address: string;
  nextNonce: number;
}

/** Failed authentication attempts per scope and subject (migration 0013, host/auth/failure-counters.ts). */
export interface AuthFailuresTable {
  scope: string;
  subject: string;
  failures: number;
  lastFailureAt: Date;
  /** In the past (or now) when the subject is not locked out. */
  lockedUntil: Date;
}
/** A webhook event recorded by ctx.emit (host/events/outbox.ts); the webhooks plugin delivers it. */
export interface WebhookOutboxTable {
  /** `evt_` and a UUIDv7. */
  id: string;
  organizationId: string;
  type: string;
  payload: ColumnType<unknown, string, string>;
  related: ColumnType<Record<string, string>, string | undefined, string>;
  idempotencyKey: string | null;
  /** Repeats of one key (per organisation) record nothing new. */
  dedupeKey: string | null;
  /** pending, provisional, final, retracted or recalled (host/events/lifecycle-rules.ts). */
  lifecycleState: ColumnType<string, string | undefined, string>;
  retractedEvtId: string | null;
  /** The chain write the event tells of, and the API request (transaction request id) that caused it. */
  chainId: number | null;
  transactionHash: string | null;
  requestId: string | null;
  /** The event this one follows in its fact's lifecycle (a delivery of it waits for that one's to settle). */
  previousEvtId: ColumnType<string | null, string | null | undefined, string | null>;
  /** A final event's block and that block's hash when told (a deep reorg recalls it). */
  blockNumber: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  blockHash: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
}
/** The blocks final events were told in, with their hashes then (host/events/recalls.ts). */
export interface WebhookFinalBlocksTable {
  chainId: number;
  blockNumber: bigint;
  blockHash: string;
}
/** How far the index lifecycle has settled each chain (host/events/index-lifecycle.ts). */
export interface IndexLifecycleCursorsTable {
  chainId: number;
  finalizedThrough: bigint;
  updatedAt: Timestamp;
}
/** A provisional event told from the index and not yet settled. */
export interface IndexObservationsTable {
  chainId: number;
  type: string;
  key: string;
  organizationId: string;
  blockNumber: bigint;
  payload: ColumnType<unknown, string, string>;
  evtId: string;
}
/** The recorded answer of a non-chain write per organisation, caller and Idempotency-Key (host/http/idempotent-response.ts). */
export interface IdempotentResponsesTable {
  organizationId: string;
  /** The API key's id, or the user's for a session. */
  caller: string;
  key: string;
  /** SHA-256 of method, path, query and body: the same key with another request is refused. */
  fingerprint: string;
  /** Null while the first request runs. */
  statusCode: ColumnType<number | null, number | undefined, number>;
  body: ColumnType<string | null, string | undefined, string>;
  createdAt: Timestamp;
}
/** The signing audit log (host/custody/signature-log.ts). */
export interface CustodySignaturesTable {
  id: string;
  organizationId: string;
  requestId: string | null;
  keyLabel: string;
  address: string;
  digest: string;
  kind: string;
  caller: string;
  signedAt: Timestamp;
}
/** An organisation's custody partition: it signs (pkcs11) while `activeUntil` is ahead (host/custody/partitions.ts). */
export interface CustodyPartitionsTable {
  id: string;
  organizationId: string;
  activeUntil: Date | null;
  createdAt: Timestamp;
}
export interface CustodyActivationApprovalsTable {
  partitionId: string;
  userId: string;
  approvedAt: Timestamp;
}
/** The core tables; a plugin widens the db with its own (`db.withTables<…>()`, e.g. plugins/tokens/tables.ts). */
export interface PlatformTables {
  signerNonces: SignerNoncesTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  apiKeys: ApiKeysTable;
  sessions: SessionsTable;
  custodySeeds: CustodySeedsTable;
  wallets: WalletsTable;
  organizationChains: OrganizationChainsTable;
  transactionRequests: TransactionRequestsTable;
  authFailures: AuthFailuresTable;
  webhookOutbox: WebhookOutboxTable;
  webhookFinalBlocks: WebhookFinalBlocksTable;
  indexLifecycleCursors: IndexLifecycleCursorsTable;
  indexObservations: IndexObservationsTable;
  idempotentResponses: IdempotentResponsesTable;
  custodySignatures: CustodySignaturesTable;
  custodyPartitions: CustodyPartitionsTable;
  custodyActivationApprovals: CustodyActivationApprovalsTable;
}
export type TransactionRequestRow = Selectable<TransactionRequestsTable>;
