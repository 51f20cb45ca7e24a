// The custody plugin's tables (migrations.ts) as Kysely types, and the platform db widened with them.
import type { ColumnType, Selectable } from "kysely";
import type { KeyPair } from "../../host/custody/custody.ts";
import type { PlatformDb } from "../../host/db/database.ts";
import type { HeldPower } from "./key-move-powers.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The steps of a move, in order (key-move-task.ts). */
export const MIGRATION_STEPS = [
  "keys",
  "grants",
  "funding",
  "switch",
  "drain",
  "revocations",
  "reissue",
  "signers",
  "done",
] as const;
export type MigrationStep = (typeof MIGRATION_STEPS)[number];

/** One on-chain role a key holds: the contract and the role id. */
export interface HeldRole {
  chainId: number;
  contract: string;
  role: string;
}

/** A claim signed by an old key that no key of the organisation may add again to its holder (claim-reissue.ts). */
export interface LeftClaim {
  chainId: number;
  holder: string;
  claimId: string;
  /** The old key that signed it: it keeps its claim purpose on the issuer identity, or the claim would be void. */
  signer: string;
}

/** A smart wallet whose old signer the move could not replace (wallet-signers.ts): its own signers must. */
export interface LeftWallet {
  chainId: number;
  address: string;
  signer: string;
  successor: string;
  weight: string;
  threshold: string;
  /**
   * below-threshold: the old key's weight alone does not reach the wallet's threshold; not-operated: the platform
   * does not send the wallet's operations for the key's holder (it does only for the wallet's owner participant).
   */
  reason: "below-threshold" | "not-operated";
}

export interface MigrationDetail {
  /** Each key and its successor in the HSM. */
  keys?: KeyPair[];
  /** The roles of each old key (by its address) granted to its successor. */
  roles?: Record<string, HeldRole[]>;
  /** The other powers of each old key (identity keys, contract identities' manager, paymaster owner) at the grants. */
  powers?: Record<string, HeldPower[]>;
  /** Claims the `reissue` step could not issue again (their signers keep their claim purpose). */
  claimsLeft?: LeftClaim[];
  /** Smart wallets whose old signer the `signers` step left for the wallets' own signers to replace. */
  walletsLeft?: LeftWallet[];
  /** The transaction requests of each step, by step. */
  requests?: Partial<Record<MigrationStep, string[]>>;
}

export interface CustodyMigrationsTable {
  id: string;
  organizationId: string;
  status: "running" | "succeeded" | "failed";
  step: MigrationStep;
  detail: ColumnType<MigrationDetail, string | undefined, string>;
  error: string | null;
  /** The operator (user id) or `cli`. */
  requestedBy: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type CustodyMigrationRow = Selectable<CustodyMigrationsTable>;
export type CustodyTables = { custodyMigrations: CustodyMigrationsTable };

export function custodyDb(db: PlatformDb) {
  return db.withTables<CustodyTables>();
}
