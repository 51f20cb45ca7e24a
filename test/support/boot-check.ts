// Run in a fresh clone by test/fresh-clone.test.ts (`tsx test/support/boot-check.ts`): starts the platform on the
// default DATA_DIR (.data) and free ports, checks /readyz and an authenticated read, notes who runs PostgreSQL and
// the data folder's modes, stops, and prints one JSON line.
import { lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { startPlatform } from "../../scripts/platform.ts";
import { freePort } from "./stack.ts";

const mode = (path: string) => lstatSync(path).mode & 0o777;

const env = {
  ...process.env,
  PORT: String(await freePort()),
  ANVIL_PORT: String(await freePort()),
  PONDER_PORT: String(await freePort()),
  EMBEDDED_POSTGRES_PORT: String(await freePort()),
  LOG_LEVEL: "warn",
};
const platform = await startPlatform({ env });
try {
  const dataDir = platform.config.dataDir;
  const readyz = (await fetch(`${platform.baseUrl}/readyz`)).status;
  const templates = (
    await fetch(`${platform.baseUrl}/api/v2/token-templates`, {
      headers: { "x-api-key": platform.credentials.apiKey },
    })
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
  const report = {
    readyz,
    templates,
    postgresUid: Number(uidLine?.[1]),
    postgresBinary: realpathSync(`/proc/${pid}/exe`),
    cluster: realpathSync(join(dataDir, "postgres")),
    clusterIsLink: lstatSync(join(dataDir, "postgres")).isSymbolicLink(),
    modes,
  };
  process.stdout.write(`BOOT-CHECK ${JSON.stringify(report)}\n`);
} finally {
  await platform.stop();
}
process.exit(0);
