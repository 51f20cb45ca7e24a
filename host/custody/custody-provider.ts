// The custody of this platform: the providers it runs, CUSTODY_PROVIDER's first.
import type { Config } from "../config.ts";
import type { PlatformDb } from "../db/database.ts";
import { type Custody, createCustody } from "./custody.ts";
import { createPkcs11Provider } from "./pkcs11/pkcs11-provider.ts";
import { pkcs11Settings } from "./pkcs11/settings.ts";
import { openPkcs11Token } from "./pkcs11/token.ts";
import { createSoftwareProvider } from "./software-provider.ts";

/** New organisations' keys go to CUSTODY_PROVIDER's; those kept in software custody before still sign there. */
export function createConfiguredCustody(config: Config, db: PlatformDb, masterKey: Buffer): Custody {
  const software = createSoftwareProvider(db, masterKey);
  if (config.CUSTODY_PROVIDER === "software") return createCustody(db, [software]);
  return createCustody(db, [createPkcs11Provider(openPkcs11Token(pkcs11Settings(config))), software]);
}
