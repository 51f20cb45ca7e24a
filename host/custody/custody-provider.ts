// The custody of this platform, with the provider CUSTODY_PROVIDER names.
import type { Config } from "../config.ts";
import type { PlatformDb } from "../db/database.ts";
import { type Custody, createCustody } from "./custody.ts";
import { createPkcs11Provider } from "./pkcs11/pkcs11-provider.ts";
import { pkcs11Settings } from "./pkcs11/settings.ts";
import { openPkcs11Token } from "./pkcs11/token.ts";
import { createSoftwareProvider } from "./software-provider.ts";

export function createConfiguredCustody(config: Config, db: PlatformDb, masterKey: Buffer): Custody {
  const provider =
    config.CUSTODY_PROVIDER === "pkcs11"
      ? createPkcs11Provider(openPkcs11Token(pkcs11Settings(config)))
      : createSoftwareProvider(db, masterKey);
  return createCustody(db, provider);
}
