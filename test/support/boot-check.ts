// Run in a fresh clone by test/fresh-clone.test.ts (`tsx test/support/boot-check.ts`): `npm start` on the default
// DATA_DIR (.data) and free ports, as a newcomer runs it; the moment /readyz first answers 200 a token creation is sent
// (it must be accepted); notes who runs PostgreSQL and the data folder's modes; stops; and prints one JSON line. (A
// restart on the same data, a write accepted the moment it is ready, is test/slice.test.ts's.)
import { lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { freePort } from "./free-port.ts";
import { runNpmStart } from "./npm-start.ts";

const mode = (path: string) => lstatSync(path).mode & 0o777;
const root = resolve(import.meta.dirname, "../..");
const dataDir = join(root, ".data");
const port = await freePort();
const env = {
  ...process.env,
  PORT: String(port),
  ANVIL_PORT: String(await freePort()),
  PONDER_PORT: String(await freePort()),
  EMBEDDED_POSTGRES_PORT: String(await freePort()),
  LOG_LEVEL: "warn",
};

const first = await runNpmStart({ cwd: root, env, port });
let report: Record<string, unknown>;
try {
  const { apiKey } = JSON.parse(readFileSync(join(dataDir, "credentials.json"), "utf8")) as { apiKey: string };
  const templates = (
    await fetch(`http://127.0.0.1:${port}/api/v2/token-templates`, { headers: { "x-api-key": apiKey } })
  ).status;
  const { pid } = JSON.parse(readFileSync(join(dataDir, "run", "postgres.pid"), "utf8")) as { pid: number };
  const uidLine = readFileSync(`/proc/${pid}/status`, "utf8").match(/^Uid:\s+(\d+)/m);
  const modes: Record<string, number> = { ".": mode(dataDir) };
  for (const folder of ["logs", "run"]) {
    modes[folder] = mode(join(dataDir, folder));
    for (const file of readdirSync(join(dataDir, folder)))
      modes[`${folder}/${file}`] = mode(join(dataDir, folder, file));
  }
  for (const file of ["custody-master.key", "credentials.json"]) modes[file] = mode(join(dataDir, file));
  report = {
    readyz: 200,
    firstReadyMs: Math.round(first.readyMs),
    firstTokenCreate: first.tokenCreate.status,
    readyBody: first.readyz,
    templates,
    postgresUid: Number(uidLine?.[1]),
    postgresBinary: realpathSync(`/proc/${pid}/exe`),
    cluster: realpathSync(join(dataDir, "postgres")),
    clusterIsLink: lstatSync(join(dataDir, "postgres")).isSymbolicLink(),
    modes,
  };
} catch (error) {
  process.stderr.write(first.output());
  throw error;
} finally {
  await first.stop();
}
process.stdout.write(`BOOT-CHECK ${JSON.stringify(report)}\n`);
process.exit(0);
