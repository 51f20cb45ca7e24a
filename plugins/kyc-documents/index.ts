// KYC documents: a participant's evidence files (passport scans, proofs of address), uploaded and read by the
// organisation's identity managers and claim issuers, stored encrypted at rest; a claim names one by its sha256
// (the identities plugin asks through the kycDocuments capability).
import { join } from "node:path";
import { definePlugin } from "../../host/plugin.ts";
import { directoryStorage } from "./document-storage.ts";
import { documentStore } from "./document-store.ts";
import { documentVault } from "./document-vault.ts";
import { ERRORS } from "./errors.ts";
import { migrations } from "./migrations.ts";
import { PERMISSIONS } from "./permissions.ts";
import { kycDocumentRoutes } from "./routes.ts";
import { KycDocumentSettings } from "./settings.ts";

export default definePlugin({
  id: "kyc-documents",
  settings: KycDocumentSettings,
  requires: ["secrets"],
  provides: {
    kycDocuments: (ctx) => ({
      holders: (organizationId, sha256) => documentStore(ctx.db.platform).holders(organizationId, sha256),
    }),
  },
  routes(app, ctx) {
    const dir = ctx.settings.KYC_DOCUMENTS_DIR ?? join(ctx.config.dataDir, "kyc-documents");
    kycDocumentRoutes(app, ctx, documentVault(directoryStorage(dir), ctx.secrets.masterKey));
  },
  migrations,
  permissions: PERMISSIONS,
  errors: ERRORS,
});
