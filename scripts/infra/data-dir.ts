// $DATA_DIR is private to the platform's user: the folder, its logs and run folders 0700, their files and the
// secrets beside them 0600 (anvil's log holds the chain's mnemonic and keys). Applied on every start, so a folder
// made by an earlier version is narrowed too.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { oneLine, removeRelocatedCluster, SetupError } from "./postgres-home.ts";

/** Sub-folders whose every file is private. */
const PRIVATE_FOLDERS = ["logs", "run"];
/** Files of $DATA_DIR itself that hold secrets. */
const SECRET_FILES = ["custody-master.key", "credentials.json"];

/** Creates a folder (and missing parents) 0700, or narrows an existing one to 0700. */
export function privateFolder(path: string) {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}

export function prepareDataDir(dataDir: string) {
  try {
    privateFolder(dataDir);
    for (const name of PRIVATE_FOLDERS) {
      const dir = join(dataDir, name);
      privateFolder(dir);
      for (const file of readdirSync(dir)) {
        if (lstatSync(join(dir, file)).isFile()) chmodSync(join(dir, file), 0o600);
      }
    }
    for (const name of SECRET_FILES) {
      if (existsSync(join(dataDir, name))) chmodSync(join(dataDir, name), 0o600);
    }
  } catch (error) {
    throw new SetupError(
      `DATA_DIR ${dataDir} is not usable (${oneLine(error)}); set DATA_DIR to a folder you can write`,
    );
  }
}

/** Deletes a data dir and the relocated cluster it points at (root's layout; see postgres-home.ts). */
export function removeDataDir(dataDir: string) {
  removeRelocatedCluster(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
}
