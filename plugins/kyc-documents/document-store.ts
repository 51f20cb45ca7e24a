// The documents' metadata rows: written on upload, read by the list and the download, removed on delete. Every read
// is scoped to the organisation and the participant, so another organisation's document is simply not found.
import { createHash } from "node:crypto";
import type { PlatformDb } from "../../host/db/database.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { type KycDocumentRow, kycDb } from "./tables.ts";

export interface DocumentOwner {
  organizationId: string;
  participantId: string;
}

export const sha256Of = (bytes: Uint8Array) => `0x${createHash("sha256").update(bytes).digest("hex")}`;

export function documentStore(platform: PlatformDb) {
  const db = kycDb(platform);
  const owned = (owner: DocumentOwner) =>
    db
      .selectFrom("kycDocuments")
      .selectAll()
      .where("organizationId", "=", owner.organizationId)
      .where("participantId", "=", owner.participantId);
  return {
    /** The participant's documents, for a collection query. */
    listed: owned,
    insert: (row: Omit<KycDocumentRow, "uploadedAt">) =>
      db.insertInto("kycDocuments").values(row).returningAll().executeTakeFirstOrThrow(),
    /** The document, or KYC_DOCUMENT_NOT_FOUND. */
    async find(owner: DocumentOwner, documentId: string): Promise<KycDocumentRow> {
      const row = await owned(owner).where("id", "=", documentId).executeTakeFirst();
      if (!row) throw notFound(owner, documentId);
      return row;
    },
    /** The organisation's participants holding a document with this SHA-256. */
    async holders(organizationId: string, sha256: string): Promise<string[]> {
      const rows = await db
        .selectFrom("kycDocuments")
        .select("participantId")
        .distinct()
        .where("organizationId", "=", organizationId)
        .where("sha256", "=", sha256.toLowerCase())
        .execute();
      return rows.map((row) => row.participantId);
    },
    /** Removes the row and answers it, or KYC_DOCUMENT_NOT_FOUND. */
    async delete(owner: DocumentOwner, documentId: string): Promise<KycDocumentRow> {
      const row = await db
        .deleteFrom("kycDocuments")
        .where("id", "=", documentId)
        .where("organizationId", "=", owner.organizationId)
        .where("participantId", "=", owner.participantId)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound(owner, documentId);
      return row;
    },
  };
}

function notFound(owner: DocumentOwner, documentId: string) {
  return new ApiError("KYC_DOCUMENT_NOT_FOUND", {
    message: `Participant ${owner.participantId} has no KYC document ${documentId}`,
    details: { participantId: owner.participantId, documentId },
  });
}
