// The bundler's tables (migrations.ts) as Kysely types, and the platform db widened with them.
import type { ColumnType, Selectable } from "kysely";
import type { Hex } from "viem";
import type { PlatformDb } from "../../host/db/database.ts";

/** NOTIFYed with an operation's hash when its status changes (migration 0003_user_operation_changes). */
export const USER_OPERATION_CHANNEL = "user_operation_changed";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type UserOperationStatus = "pending" | "submitted" | "included" | "failed";

export interface BundlerUserOperationsTable {
  userOpHash: string;
  chainId: number;
  entryPoint: string;
  sender: string;
  nonce: string;
  /** The organisation whose caller sent it: its bundler wallet submits it. */
  organizationId: string;
  /** As the client sent it (ERC-7769 JSON, hex quantities). */
  userOperation: ColumnType<Record<string, unknown>, string, string>;
  /** The PackedUserOperation handleOps takes (hex fields). */
  packedOperation: ColumnType<Record<string, unknown>, string, string>;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  /** The paymaster that pays its gas (lowercase), and the most it may be charged (wei): the sponsorship limits. */
  paymaster: ColumnType<string | null, string | null | undefined, string | null>;
  maxCharge: ColumnType<string | null, string | null | undefined, string | null>;
  /** The factory that deploys its sender (lowercase; not the EIP-7702 marker): its ERC-7562 reputation counts it. */
  factory: ColumnType<string | null, string | null | undefined, string | null>;
  status: UserOperationStatus;
  /** The bundle's chain write (platform.transaction_requests): its hash is the bundle's transaction hash. */
  transactionRequestId: string | null;
  transactionHash: string | null;
  /**
   * The bundle that claimed it (bundle.ts): set with `submitted` before its chain write is queued, which carries
   * `bundle:<bundleId>` as idempotency key, so a run retried after a crash queues that write once.
   */
  bundleId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The executor wallet (lowercase) whose bundle claimed it: the sender's next operations go out from it too. */
  executor: ColumnType<string | null, string | null | undefined, string | null>;
  /** Safe mode: each contract the validation ran (lowercase) and its code hash, checked again before its bundle
   * (ERC-7562 COD-010, code-hashes.ts); null in unsafe mode. */
  validationCodeHashes: ColumnType<Record<string, Hex> | null, string | null | undefined, string | null>;
  /**
   * The chain's head when it was accepted (numeric, as text): an operation naming a throttled entity leaves the
   * mempool THROTTLED_ENTITY_LIVE_BLOCKS later. Null for one without paymaster or factory (never throttled).
   */
  acceptedBlock: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The contracts (lowercase) whose storage its traced validation accessed, its sender's and the EntryPoint's aside;
   * null when none (or in unsafe mode): STO-041 holds it back while one of them is a live operation's sender.
   */
  storageAddresses: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  /**
   * Written while its validation still runs (quick-insert.ts): no bundle takes it, nor its sender's other operations,
   * until it is marked accepted (or withdrawn, refused).
   */
  accepting: ColumnType<boolean, boolean | undefined, boolean>;
  failureReason: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface BundlerSettingsTable {
  chainId: number;
  bundlingMode: "auto" | "manual";
}

/** ERC-7562's counters of one entity (paymaster, factory) per chain and EntryPoint (reputation.ts). */
export interface BundlerReputationTable {
  chainId: number;
  entryPoint: string;
  address: string;
  opsSeen: number;
  opsIncluded: number;
  /** When the counters were last decayed: each whole hour since takes its step. */
  decayedAt: Timestamp;
}

export type BundlerTables = {
  bundlerUserOperations: BundlerUserOperationsTable;
  bundlerSettings: BundlerSettingsTable;
  bundlerReputation: BundlerReputationTable;
};
export type UserOperationRow = Selectable<BundlerUserOperationsTable>;

export const bundlerDb = (db: PlatformDb) => db.withTables<BundlerTables>();
export type BundlerDb = ReturnType<typeof bundlerDb>;
