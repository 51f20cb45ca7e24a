// The KYC documents' settings (docs/configuration.md): where the encrypted files are stored.
import { z } from "zod";

export const KycDocumentSettings = z.object({
  KYC_DOCUMENTS_DIR: z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        "The directory that stores the KYC documents' files, each encrypted (AES-256-GCM under a key derived from " +
        "the master key); 0700, files 0600. Every host process must see the same directory. The metadata is in the " +
        "database: back both up together.",
      defaultText: "`$DATA_DIR/kyc-documents`",
    }),
});
export type KycDocumentSettings = z.output<typeof KycDocumentSettings>;
