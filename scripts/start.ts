// `npm start`: the whole platform on the embedded defaults (or what the environment configures).
import { readFileSync } from "node:fs";
import { credentialsPath } from "./bootstrap.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { START_DEFAULTS } from "./start-defaults.ts";

const say = (line: string) => process.stdout.write(`${line}\n`);

for (const [name, value] of Object.entries(START_DEFAULTS)) process.env[name] ??= value;

// Ctrl-C is handled from the first moment: during the start it stops what has started (the chain, database and
// indexer run detached and would otherwise be left running), afterwards the whole platform.
const startStopped = new AbortController();
let platform: Platform | undefined;
let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  say(`${signal}: stopping`);
  if (!platform) {
    startStopped.abort(new Error(`${signal} during the start`));
    return; // the start stops what it started, then fails: see below
  }
  await platform.stop();
  say("stopped");
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

try {
  platform = await startPlatform({ progress: say, signal: startStopped.signal });
  const path = credentialsPath(platform.config.dataDir);
  if (platform.firstStart) {
    say("\nFirst start: your organisation's credentials (shown once; kept in a 0600 file):");
    say(readFileSync(path, "utf8"));
  } else {
    say(`Credentials: ${path}`);
  }
  say(`Ready in ${(platform.timings.total / 1000).toFixed(1)} s. Stop with Ctrl-C.`);
} catch (error) {
  if (startStopped.signal.aborted) {
    say("stopped");
    process.exit(130);
  }
  process.stderr.write(`Start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
