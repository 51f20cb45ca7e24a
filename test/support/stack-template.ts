// A data dir holding what every test stack's first start would otherwise build again: an initialised, migrated
// PostgreSQL cluster and a chain with the contracts deployed (anvil's state file and the deployment manifest).
// The e2e project's global setup prepares it once per run (E2E_STACK_TEMPLATE); testEnv copies it into each fresh
// data dir, so a boot skips initdb, the deployment and the migrations and still creates its organisation and index.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import { openDatabases } from "../../host/db/database.ts";
import { migrate } from "../../host/db/migrations.ts";
import { createLogger } from "../../host/logger.ts";
import { migrateWorkerSchema } from "../../host/worker/worker-schema.ts";
import { compileContracts } from "../../scripts/contracts/compile.ts";
import { ensureDeployment } from "../../scripts/contracts/deploy.ts";
import { ANVIL_FUNDER_KEY, startChain } from "../../scripts/infra/anvil.ts";
import { prepareDataDir } from "../../scripts/infra/data-dir.ts";
import { startPostgres } from "../../scripts/infra/postgres.ts";
import { placeCluster } from "../../scripts/infra/postgres-home.ts";
import { composed } from "../../scripts/platform-context.ts";

const CHAIN_ID = 31337;
/** The chain's files a start reuses (paths under the data dir). */
const CHAIN_FILES = ["anvil/state.json.gz", `deployments/${CHAIN_ID}.json`];
/** Settings under which a start would not use the embedded database or chain, or not deploy: no template then. */
const OWN_SETUP = ["DATABASE_URL", "RPC_URL", "CHAIN_ID", "DEPLOYMENT_MANIFEST", "DEPLOYER_PRIVATE_KEY"];

/** Builds the template data dir (PostgreSQL and anvil on the given ports, both stopped again); returns its path. */
export async function prepareStackTemplate(ports: { postgres: number; anvil: number }): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "platform-e2e-template-"));
  prepareDataDir(dataDir);
  const postgres = await startPostgres({ dataDir, port: ports.postgres });
  try {
    const chain = await startChain({ dataDir, port: ports.anvil, chainId: CHAIN_ID });
    try {
      await ensureDeployment({
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        deployerKey: ANVIL_FUNDER_KEY,
        manifestPath: join(dataDir, CHAIN_FILES[1]),
        build: compileContracts(),
      });
    } finally {
      await chain.stop(); // saves the chain's state
    }
    const db = openDatabases(postgres.url, "ledger", 2);
    try {
      await migrate(new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) }), composed.migrations);
      await migrateWorkerSchema(db.pool, createLogger("warn"));
    } finally {
      await db.close();
    }
  } finally {
    await postgres.stop();
  }
  return dataDir;
}

/** Copies the template (if this run has one and env would use it) into a new, empty data dir. */
export function seedFromTemplate(dataDir: string, env: NodeJS.ProcessEnv) {
  const template = env.E2E_STACK_TEMPLATE;
  if (!template || OWN_SETUP.some((name) => env[name])) return;
  for (const file of CHAIN_FILES) {
    mkdirSync(dirname(join(dataDir, file)), { recursive: true });
    copyFileSync(join(template, file), join(dataDir, file));
  }
  // placeCluster makes the (empty) cluster folder where this data dir's server will look; cp -a keeps the files'
  // owner, the unprivileged server user's when running as root.
  const { pgdata } = placeCluster(dataDir);
  const source = realpathSync(join(template, "postgres"));
  if (!existsSync(join(source, "PG_VERSION"))) throw new Error(`${template} holds no PostgreSQL cluster`);
  execFileSync("cp", ["-a", `${source}/.`, pgdata]);
}
