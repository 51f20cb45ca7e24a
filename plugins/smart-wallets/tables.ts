// The smart-wallets plugin's tables (migrations.ts) as Kysely types, and the platform db widened with them.
import type { ColumnType, Selectable } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

/** NOTIFYed with a wallet's address when its deployment step changes (migration 0004_smart_wallet_changes). */
export const SMART_WALLET_CHANNEL = "smart_wallet_changed";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export type ValidatorType = "ecdsa" | "weighted-multisig";
/** The deployment's steps, in order; `deployed` once all are done, `failed` when one cannot be. */
export type DeploymentStep = "sponsorship" | "account" | "identity-key" | "identity-registry" | "deployed" | "failed";

export interface WalletSigner {
  address: string;
  /** Decimal uint64. */
  weight: string;
}

export interface SmartWalletsTable {
  address: string;
  organizationId: string;
  chainId: number;
  participantId: string;
  validatorType: ValidatorType;
  description: string | null;
  /** The initial signer set, in the order the factory got it (the address depends on it). */
  signers: Json<WalletSigner[]>;
  threshold: string;
  salt: string;
  /** Whether the organisation's paymaster sponsors it (decided at creation; the sponsorship step runs only then). */
  sponsored: ColumnType<boolean, boolean | undefined, boolean>;
  step: DeploymentStep;
  /** Why the deployment stopped (step `failed`), and at which step a repeated POST resumes it. */
  failure: string | null;
  failedStep: DeploymentStep | null;
  /** Raised by each resumption: the steps' chain writes are keyed by it (a failed write is not attached to again). */
  attempt: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SmartWalletOperationsTable {
  /** The transaction request (platform.transaction_requests) the operation carries out. */
  requestId: string;
  wallet: string;
  userOpHash: string;
  /** The unsigned operation (ERC-7769 JSON, hex quantities, signature "0x"). */
  operation: Json<Record<string, string>>;
  /** Signer address (lowercase) → 65-byte signature over userOpHash. */
  signatures: Json<Record<string, string>>;
  createdAt: Timestamp;
}

export type SmartWalletTables = {
  smartWallets: SmartWalletsTable;
  smartWalletOperations: SmartWalletOperationsTable;
};
export type SmartWalletRow = Selectable<SmartWalletsTable>;
export type SmartWalletOperationRow = Selectable<SmartWalletOperationsTable>;

export const walletsDb = (db: PlatformDb) => db.withTables<SmartWalletTables>();
