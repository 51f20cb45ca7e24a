// `npm start` as a newcomer runs it, in a folder of their own: the time from the command to the first /readyz 200,
// and a token creation sent that very moment (a usable platform accepts it). For test/fresh-clone.test.ts (through
// boot-check.ts) and the start benchmark.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface NpmStartRun {
  /** From spawning `npm start` to the first /readyz 200. */
  readyMs: number;
  /** The readiness body of that first 200. */
  readyz: Record<string, unknown>;
  /** `POST /api/v2/tokens` sent right after: its status and body. */
  tokenCreate: { status: number; body: unknown };
  /** What `npm start` printed so far. */
  output(): string;
  /** Ctrl-C, as a person stops it; resolves when every process of the group has exited. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether any process of the group is left (npm exits on Ctrl-C before the platform under it has stopped). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function runNpmStart(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The host's PORT in `env`. */
  port: number;
  /** Give up after this long (default 180 s). */
  timeoutMs?: number;
}): Promise<NpmStartRun> {
  const started = performance.now();
  const child = spawn("npm", ["start"], { cwd: options.cwd, env: options.env, detached: true, stdio: "pipe" });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const stop = async () => {
    const pgid = child.pid!;
    if (!groupAlive(pgid)) return;
    process.kill(-pgid, "SIGINT");
    const killAt = performance.now() + 30_000;
    while (groupAlive(pgid)) {
      if (performance.now() > killAt) process.kill(-pgid, "SIGKILL");
      await sleep(50);
    }
  };
  const base = `http://127.0.0.1:${options.port}`;
  const deadline = started + (options.timeoutMs ?? 180_000);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
      if (performance.now() > deadline) throw new Error(`not ready in time:\n${output}`);
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
      if (res?.status === 200) {
        const readyMs = performance.now() - started;
        const readyz = (await res.json()) as Record<string, unknown>;
        const dataDir = resolve(options.cwd, options.env.DATA_DIR ?? ".data");
        const { apiKey } = JSON.parse(readFileSync(join(dataDir, "credentials.json"), "utf8")) as { apiKey: string };
        const created = await fetch(`${base}/api/v2/tokens`, {
          method: "POST",
          headers: { "x-api-key": apiKey, "content-type": "application/json" },
          body: JSON.stringify({ templateId: "deposit", name: "First Deposit", symbol: "FRST", decimals: 2 }),
        });
        const tokenCreate = { status: created.status, body: await created.json().catch(() => undefined) };
        return { readyMs, readyz, tokenCreate, output: () => output, stop };
      }
      await res?.body?.cancel();
      await sleep(50);
    }
  } catch (error) {
    await stop();
    throw error;
  }
}
