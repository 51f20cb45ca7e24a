// The platform as `npm start` runs it (scripts/start.ts in a process of its own, its defaults included), on a data
// dir of its own: started, killed outright and started again on the same data, as a service manager would.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { pidFile } from "../../scripts/infra/orphans.ts";
import { ROOT } from "../../scripts/platform.ts";
import { testEnv } from "../../test/support/stack.ts";

export interface Credentials {
  baseUrl: string;
  apiKey: string;
  rpcUrl: string;
  chainId: number;
}

export interface PlatformProcess {
  dataDir: string;
  credentials: Credentials;
  /** The PID of a part the supervisor runs (postgres, anvil, ponder, worker), from its PID file. */
  pidOf(part: string): number;
  /** SIGKILLs the supervisor (its children follow it: no orphans). */
  killSupervisor(): Promise<void>;
  /** `npm start` again on the same data dir; resolves when it printed "Ready in". */
  startAgain(): Promise<void>;
  /** The last lines it printed (for a failure's message). */
  tail(): string;
  /** Stops it (SIGTERM, waiting for it) and removes its data dir. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const START_TIMEOUT_MS = 240_000;

export async function startPlatformProcess(overrides: Record<string, string> = {}): Promise<PlatformProcess> {
  const { dataDir, env } = await testEnv({ LOG_LEVEL: "warn", ...overrides }, { fresh: true });
  let child: ChildProcess;
  let output = "";

  async function start() {
    output = "";
    child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts/start.ts")], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (chunk) => (output = (output + chunk).slice(-20_000)));
    child.stderr?.on("data", (chunk) => (output = (output + chunk).slice(-20_000)));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!output.includes("Ready in")) {
      if (child.exitCode !== null) throw new Error(`the platform exited during start:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the platform did not start in time:\n${output}`);
      await sleep(100);
    }
  }

  const exited = () => child.exitCode !== null || child.signalCode !== null;
  await start();
  const credentials = JSON.parse(readFileSync(join(dataDir, "credentials.json"), "utf8")) as Credentials;
  return {
    dataDir,
    credentials,
    pidOf: (part) => JSON.parse(readFileSync(pidFile(dataDir, part), "utf8")).pid as number,
    async killSupervisor() {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await gone;
    },
    startAgain: start,
    tail: () => output.split("\n").slice(-30).join("\n"),
    async stop() {
      if (!exited()) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([gone, sleep(60_000)]);
        if (!exited()) child.kill("SIGKILL");
      }
      removeDataDir(dataDir);
    },
  };
}
