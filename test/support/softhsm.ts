// A fresh SoftHSM2 token for a test: its own SOFTHSM2_CONF and token directory in a temporary folder, initialised with
// softhsm2-util. SoftHSM2 and OpenSC are CI's (.ci/run installs them): missing, the test fails and says so.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SOFTHSM2_MODULE } from "../../host/custody/pkcs11/settings.ts";

export interface TestToken {
  /** The SOFTHSM2_CONF of the token: set it before the module is loaded. */
  conf: string;
  module: string;
  label: string;
  userPin: string;
  /** The settings of a platform that keeps its keys in this token. */
  env: Record<string, string>;
  /** Deletes the token and its configuration. */
  remove(): void;
}

export function requireSoftHsm(): void {
  const missing = [SOFTHSM2_MODULE, "/usr/bin/softhsm2-util", "/usr/bin/pkcs11-tool"].filter((p) => !existsSync(p));
  if (missing.length > 0)
    throw new Error(
      `SoftHSM2 and OpenSC are required by the pkcs11 custody tests (missing ${missing.join(", ")}): ` +
        "apt-get install softhsm2 opensc (.ci/run installs them).",
    );
}

export function createTestToken(label = "asset-platform-test"): TestToken {
  requireSoftHsm();
  const dir = mkdtempSync(join(tmpdir(), "softhsm-"));
  mkdirSync(join(dir, "tokens"));
  const conf = join(dir, "softhsm2.conf");
  writeFileSync(conf, `directories.tokendir = ${join(dir, "tokens")}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  const userPin = "246810";
  execFileSync("softhsm2-util", ["--init-token", "--free", "--label", label, "--so-pin", "13579", "--pin", userPin], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
    stdio: "pipe",
  });
  return {
    conf,
    module: SOFTHSM2_MODULE,
    label,
    userPin,
    remove: () => rmSync(dir, { recursive: true, force: true }),
    env: {
      SOFTHSM2_CONF: conf,
      CUSTODY_PROVIDER: "pkcs11",
      PKCS11_MODULE: SOFTHSM2_MODULE,
      PKCS11_TOKEN_LABEL: label,
      PKCS11_USER_PIN: userPin,
    },
  };
}

/** pkcs11-tool's listing of the token's objects (labels and attributes, never a key value). */
export function listTokenObjects(token: TestToken): string {
  return execFileSync(
    "pkcs11-tool",
    ["--module", token.module, "--token-label", token.label, "--login", "--pin", token.userPin, "--list-objects"],
    { env: { ...process.env, SOFTHSM2_CONF: token.conf }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
}
