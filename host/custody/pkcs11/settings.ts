// The PKCS#11 settings of a platform with CUSTODY_PROVIDER=pkcs11, checked at start: the token's label and the user
// PIN (given, or read from PKCS11_USER_PIN_FILE) are required; the module defaults to SoftHSM2's where installed.
import { existsSync, readFileSync } from "node:fs";
import type { Config } from "../../config.ts";
import type { Pkcs11Settings } from "./token.ts";

export const SOFTHSM2_MODULE = "/usr/lib/softhsm/libsofthsm2.so";

export function pkcs11Settings(config: Config): Pkcs11Settings {
  const module = config.PKCS11_MODULE ?? (existsSync(SOFTHSM2_MODULE) ? SOFTHSM2_MODULE : undefined);
  if (!module) throw new Error("CUSTODY_PROVIDER=pkcs11 needs PKCS11_MODULE (SoftHSM2 is not installed here)");
  if (!config.PKCS11_TOKEN_LABEL) throw new Error("CUSTODY_PROVIDER=pkcs11 needs PKCS11_TOKEN_LABEL");
  const userPin =
    config.PKCS11_USER_PIN ??
    (config.PKCS11_USER_PIN_FILE ? readFileSync(config.PKCS11_USER_PIN_FILE, "utf8").split("\n")[0].trim() : undefined);
  if (!userPin) throw new Error("CUSTODY_PROVIDER=pkcs11 needs PKCS11_USER_PIN or PKCS11_USER_PIN_FILE");
  return { module, tokenLabel: config.PKCS11_TOKEN_LABEL, userPin };
}
