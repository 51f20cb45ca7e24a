// The plugin's table (migrations.ts) as a Kysely type, and the platform db widened with it.
import type { ColumnType, Selectable } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

export interface KycDocumentsTable {
  id: string;
  organizationId: string;
  participantId: string;
  type: string;
  claimTopic: string | null;
  /** The name the uploader's file had (informative only; never a path on disk). */
  fileName: string | null;
  contentType: string;
  /** Bytes of the plaintext. */
  size: number;
  /** SHA-256 of the plaintext, 0x and 64 lowercase hex digits. */
  sha256: string;
  uploadedBy: string;
  uploadedAt: ColumnType<Date, Date | string | undefined, never>;
}

// A type alias, not an interface: withTables wants an index signature.
export type KycDocumentTables = { kycDocuments: KycDocumentsTable };
export type KycDocumentRow = Selectable<KycDocumentsTable>;

export const kycDb = (db: PlatformDb) => db.withTables<KycDocumentTables>();
