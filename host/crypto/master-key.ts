// The master key that seals secrets at rest: CUSTODY_MASTER_KEY, else (embedded default only) a generated key
// kept beside the data it protects.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";

export function loadMasterKey(config: Config): Buffer {
  if (config.CUSTODY_MASTER_KEY) return Buffer.from(config.CUSTODY_MASTER_KEY.slice(2), "hex");
  const path = join(config.dataDir, "custody-master.key");
  if (!existsSync(path)) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(path, randomBytes(32).toString("hex"), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(path, "utf8").trim(), "hex");
}
