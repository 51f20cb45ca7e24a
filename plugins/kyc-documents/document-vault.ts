// The documents' bytes at rest: sealed with AES-256-GCM under a key derived from the master key (one purpose, one
// key), a fresh IV per file, the document's id authenticated with it (a file moved under another id does not open);
// stored in the configured backend.
import { deriveKey } from "../../host/crypto/derive-key.ts";
import { openBytes, sealBytes } from "../../host/crypto/sealed-bytes.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { DocumentStorage } from "./document-storage.ts";

/** Change it only with a re-encryption of every stored file: it names the key the files are sealed under. */
const KEY_PURPOSE = "kyc-documents v1";

export interface DocumentVault {
  put(documentId: string, plaintext: Uint8Array): Promise<void>;
  /** The plaintext; KYC_DOCUMENT_UNREADABLE when the file is gone or its auth tag does not verify. */
  get(documentId: string): Promise<Buffer>;
  remove(documentId: string): Promise<void>;
}

export function documentVault(storage: DocumentStorage, masterKey: Buffer): DocumentVault {
  const key = deriveKey(masterKey, KEY_PURPOSE);
  const unreadable = (documentId: string, reason: string) =>
    new ApiError("KYC_DOCUMENT_UNREADABLE", { details: { documentId, reason } });
  return {
    put: (documentId, plaintext) => storage.write(documentId, sealBytes(plaintext, key, documentId)),
    async get(documentId) {
      const sealed = await storage.read(documentId);
      if (!sealed) throw unreadable(documentId, "the stored file is missing");
      try {
        return openBytes(sealed, key, documentId);
      } catch {
        throw unreadable(documentId, "the stored file does not verify");
      }
    },
    remove: (documentId) => storage.remove(documentId),
  };
}
