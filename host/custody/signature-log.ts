// The signing audit log: every signature a custody key makes, appended to platform.custody_signatures (request,
// organisation, key label, digest, kind, caller, time). Digests and labels only: never anything of a key.

import { v7 as uuidv7 } from "uuid";
import type { Hex } from "viem";
import type { PlatformDb } from "../db/database.ts";
import type { DigestSigner, SignatureKind } from "./digest-account.ts";

/** Who asks for a signature, as the audit log records it. */
export interface SigningContext {
  /** The transaction request signed for, where there is one. */
  requestId?: string;
  /** The platform part asking, e.g. `worker:send-transaction`. */
  caller: string;
}

export interface SignatureRecord {
  organizationId: string;
  keyLabel: string;
  address: string;
  digest: Hex;
  kind: SignatureKind;
  context: SigningContext;
}

export async function appendSignature(db: PlatformDb, record: SignatureRecord): Promise<void> {
  await db
    .insertInto("custodySignatures")
    .values({
      id: uuidv7(),
      organizationId: record.organizationId,
      requestId: record.context.requestId ?? null,
      keyLabel: record.keyLabel,
      address: record.address.toLowerCase(),
      digest: record.digest,
      kind: record.kind,
      caller: record.context.caller,
    })
    .execute();
}

/** `signer` with each of its signatures appended to the log once made. */
export function auditedSigner(
  db: PlatformDb,
  organizationId: string,
  signer: DigestSigner,
  context: SigningContext,
): DigestSigner {
  return {
    ...signer,
    async signDigest(digest, kind) {
      const signature = await signer.signDigest(digest, kind);
      await appendSignature(db, {
        organizationId,
        keyLabel: signer.keyLabel,
        address: signer.address,
        digest,
        kind,
        context,
      });
      return signature;
    },
  };
}
