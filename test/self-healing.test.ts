// The platform keeps itself up as `npm start` runs it (scripts/start.ts in a process of its own): a worker process,
// the embedded PostgreSQL's postmaster and the indexer, each killed with SIGKILL, come back without a person — /readyz
// is ready again and an idempotent write completes — and a supervisor killed outright leaves no child running. A
// client looping over reads and writes meanwhile is answered 2xx or 503 with Retry-After, never a 500 or a 404: while
// PostgreSQL is down, and across 5 restarts of a host process (HOST_PROCESSES=2, its second host killed).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDir } from "../scripts/infra/data-dir.ts";
import { ROOT } from "../scripts/platform.ts";
import { json, testEnv } from "./support/stack.ts";

const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a platform that keeps itself up", () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let platform: ChildProcess;
  let logs = "";
  let baseUrl: string;
  let apiKey: string;
  let token: string;

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { "x-api-key": apiKey, "content-type": "application/json", ...(init.headers ?? {}) },
      signal: AbortSignal.timeout(15_000),
    });
  const pidOf = (name: string) => JSON.parse(readFileSync(join(dataDir, "run", `${name}.pid`), "utf8")).pid as number;
  // biome-ignore lint/suspicious/noExplicitAny: the readiness body as JSON
  const readyz = async (): Promise<any> => {
    const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
    return res ? { ...((await res.json().catch(() => ({}))) as object), code: res.status } : { code: 0 };
  };

  /** Seconds from `since` until /readyz answers 200 with `part` restarted at least once more than `before`. */
  async function readyAfterRestart(part: string, before: number, since: number, timeoutMs: number) {
    for (;;) {
      const body = await readyz();
      const restarts = body.parts?.find((p: { name: string }) => p.name === part)?.restarts ?? 0;
      if (body.code === 200 && restarts > before) return { seconds: (Date.now() - since) / 1000, body };
      if (Date.now() - since > timeoutMs) throw new Error(`not ready in ${timeoutMs} ms: ${JSON.stringify(body)}`);
      await sleep(200);
    }
  }

  /** A mint sent (and resent under its Idempotency-Key, as a client does) until it answers COMPLETED. */
  async function mintCompletes(key: string, since: number, timeoutMs: number): Promise<number> {
    for (;;) {
      const res = await api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        headers: { "idempotency-key": key, prefer: "wait=10" },
        body: JSON.stringify({ recipients: [RECIPIENT], amounts: ["1"] }),
      }).catch(() => undefined);
      const body = res ? await json(res).catch(() => undefined) : undefined;
      if (res?.status === 200 && body?.data?.status === "COMPLETED") return (Date.now() - since) / 1000;
      if (Date.now() - since > timeoutMs) throw new Error(`${key} not done: ${res?.status} ${JSON.stringify(body)}`);
      await sleep(250);
    }
  }

  /**
   * A client's loop until `stop()`: GET of the existing token and a mint under the Idempotency-Key `key()`. Counts
   * the answers ("none": refused or dropped connection) and lists the wrong ones: anything but 2xx or 503 with
   * Retry-After.
   */
  async function clientLoop(url: string, key: () => string, stop: () => boolean, answered = { count: 0 }) {
    const answers: Record<string, number> = {};
    const wrong: string[] = [];
    const headers = { "x-api-key": apiKey, "content-type": "application/json" };
    const requests = [
      () => fetch(`${url}/api/v2/tokens/${token}`, { headers, signal: AbortSignal.timeout(15_000) }),
      () =>
        fetch(`${url}/api/v2/tokens/${token}/mint`, {
          method: "POST",
          headers: { ...headers, "idempotency-key": key() },
          body: JSON.stringify({ recipients: [RECIPIENT], amounts: ["1"] }),
          signal: AbortSignal.timeout(15_000),
        }),
    ];
    while (!stop()) {
      for (const request of requests) {
        const res = await request().catch(() => undefined);
        const body = res ? await res.text().catch(() => "") : "";
        const label = res
          ? `${res.status}${res.status >= 400 ? ` ${body.match(/"code":"([^"]+)"/)?.[1]}` : ""}`
          : "none";
        answers[label] = (answers[label] ?? 0) + 1;
        if (res) answered.count += 1;
        const fine = !res || res.status < 300 || (res.status === 503 && res.headers.get("retry-after") !== null);
        if (!fine) wrong.push(`${res.status} ${body.slice(0, 300)}`);
      }
      await sleep(50);
    }
    return { answers, wrong };
  }

  const partStatus = async (name: string) =>
    (await readyz()).parts?.find((p: { name: string }) => p.name === name) as { restarts: number } | undefined;

  beforeAll(async () => {
    // Restarts after 0.1 s doubling (0.5 s by default): the host's five in a row wait 3.1 s in all, not 15.5 s.
    ({ dataDir, env } = await testEnv({ HOST_PROCESSES: "2", RESTART_BACKOFF_SECONDS: "0.1" }));
    platform = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts/start.ts")], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    platform.stdout?.on("data", (chunk) => (logs += chunk));
    platform.stderr?.on("data", (chunk) => (logs += chunk));
    const deadline = Date.now() + 150_000;
    while (!logs.includes("Ready in")) {
      if (platform.exitCode !== null) throw new Error(`the platform exited during start:\n${logs}`);
      if (Date.now() > deadline) throw new Error(`the platform did not start:\n${logs}`);
      await sleep(100);
    }
    ({ baseUrl, apiKey } = JSON.parse(readFileSync(join(dataDir, "credentials.json"), "utf8")));
    const created = await api("/api/v2/tokens", {
      method: "POST",
      headers: { prefer: "wait=60" },
      body: JSON.stringify({ templateId: "deposit", name: "Healing", symbol: "HEAL" }),
    });
    token = (await json(created)).data.tokenAddress;
    expect(token).toMatch(/^0x/);
  }, 240_000);

  afterAll(async () => {
    if (platform?.exitCode === null && platform.signalCode === null) {
      const exited = new Promise((r) => platform.once("exit", r));
      platform.kill("SIGTERM");
      await exited;
    }
    if (dataDir) removeDataDir(dataDir);
  });

  it("restarts a killed worker process: ready again, its jobs released at once, a write completes within 12 s", async () => {
    const before = (await partStatus("worker"))?.restarts ?? 0;
    const logsBefore = logs.length;
    const killed = Date.now();
    process.kill(pidOf("worker"), "SIGKILL");
    const ready = await readyAfterRestart("worker", before, killed, 30_000);
    const done = await mintCompletes("heal-worker", killed, 30_000);
    console.log(`worker SIGKILL: ready again after ${ready.seconds} s, a mint completed after ${done} s`);
    expect(ready.body.parts).toContainEqual({
      name: "worker",
      state: "running",
      restarts: 1,
      lastExit: "signal SIGKILL",
    });
    // The jobs it held (its signer's send run among them) released by the supervisor as it died, not by lock recovery
    // once its heartbeat was silent for WORKER_DEAD_AFTER_SECONDS (20): that took 15-25 s.
    expect(logs.slice(logsBefore)).toContain("released the jobs of a worker process that died");
    expect(done).toBeLessThan(12);
  });

  it("restarts a killed PostgreSQL: ready again and a write completes within 60 s, the outage logged once", async () => {
    const before = (await partStatus("postgres"))?.restarts ?? 0;
    const workerRestarts = (await partStatus("worker"))?.restarts;
    const logsBefore = logs.length;
    // Writes on their way when the database goes: the worker loses its connections in the middle of them.
    const inFlight = ["heal-postgres-1", "heal-postgres-2", "heal-postgres-3"];
    for (const key of inFlight) {
      const res = await api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        headers: { "idempotency-key": key },
        body: JSON.stringify({ recipients: [RECIPIENT], amounts: ["1"] }),
      });
      expect(res.status).toBe(202);
    }
    let outageOver = false;
    let round = 0;
    const killed = Date.now();
    process.kill(pidOf("postgres"), "SIGKILL");
    const client = clientLoop(
      baseUrl,
      () => `heal-postgres-loop-${round++}`,
      () => outageOver,
    );
    const ready = await readyAfterRestart("postgres", before, killed, 60_000).finally(() => (outageOver = true));
    const { answers, wrong } = await client;
    console.log(`PostgreSQL SIGKILL: a client's loop was answered ${JSON.stringify(answers)}`);
    expect(wrong).toEqual([]);
    const unavailable = Object.entries(answers).filter(([label]) => label.startsWith("503"));
    expect(unavailable.length).toBeGreaterThan(0); // it did run into the outage
    const writes = Promise.all(["heal-postgres", ...inFlight].map((key) => mintCompletes(key, killed, 60_000)));
    const done = Math.max(
      ...(await writes.catch((error) => {
        const workerLog = readFileSync(join(dataDir, "logs", "worker.log"), "utf8").split("\n");
        console.log(
          workerLog
            .filter((l) => !l.includes('"debug"'))
            .map((l) => l.slice(0, 400))
            .join("\n"),
        );
        throw error;
      })),
    );
    console.log(`PostgreSQL SIGKILL: ready again after ${ready.seconds} s, 4 mints completed after ${done} s`);
    console.log(`parts: ${JSON.stringify(ready.body.parts)}`);
    expect(done).toBeLessThan(60);
    const lines = logs.slice(logsBefore).split("\n");
    const counts: Record<string, number> = {};
    for (const line of lines) {
      const msg = line.match(/"msg":"([^"]*)"/)?.[1];
      if (msg) counts[msg] = (counts[msg] ?? 0) + 1;
    }
    console.log(`logged during the outage: ${JSON.stringify(counts)}`);
    // The worker process lived through it (its runner started again once the database was back).
    expect((await partStatus("worker"))?.restarts).toBe(workerRestarts);
    const lifecycleLines = lines.filter((line) => line.includes("index lifecycle"));
    expect(lifecycleLines.length).toBeLessThanOrEqual(2); // its start (and end), not one per 100 ms tick
  });

  it("restarts a killed indexer: its schema claimed again, the chain views made again, ready within 60 s", async () => {
    const before = (await partStatus("ponder"))?.restarts ?? 0;
    const killed = Date.now();
    process.kill(pidOf("ponder"), "SIGKILL");
    const ready = await readyAfterRestart("ponder", before, killed, 60_000);
    const done = await mintCompletes("heal-ponder", killed, 60_000);
    console.log(`indexer SIGKILL: ready again after ${ready.seconds} s, a mint completed after ${done} s`);
    const balance = await api(`/api/v2/tokens/${token}/holders`);
    expect(balance.status).toBe(200); // read from the index through the chain views made again
  });

  it("answers a client's reads and writes 2xx or 503 across 5 restarts of a host process, never 500 or 404", async () => {
    const hostUrl = logs.match(/listening on \S+, (http:\/\/\S+)/)?.[1] as string;
    expect(hostUrl).toMatch(/^http:/);
    let restarts = 0;
    let done = false;
    const answered = { count: 0 };
    const client = clientLoop(
      hostUrl,
      () => `heal-host-${restarts}`,
      () => done,
      answered,
    );
    const started = Date.now();
    /** Until the loop had a read and a write answered by the host as it is now (started anew). */
    const servedTwice = async () => {
      const before = answered.count;
      while (answered.count < before + 2) await sleep(50);
    };
    for (; restarts < 5; ) {
      const before = (await partStatus("host-2"))?.restarts ?? 0;
      await servedTwice();
      process.kill(pidOf("host-2"), "SIGKILL");
      while (((await partStatus("host-2"))?.restarts ?? 0) <= before) await sleep(100);
      restarts += 1;
    }
    await servedTwice();
    done = true;
    const { answers, wrong } = await client;
    console.log(`host-2 SIGKILL ×5 in ${(Date.now() - started) / 1000} s: answered ${JSON.stringify(answers)}`);
    expect(wrong).toEqual([]);
    expect(answers.none ?? 0).toBeGreaterThan(0); // it did run into the restarts
  });

  it("leaves no child running when the supervisor is killed outright", async () => {
    const run = join(dataDir, "run");
    const pids = readdirSync(run)
      .filter((file) => file.endsWith(".pid"))
      .map((file) => pidOf(file.replace(/\.pid$/, "")));
    expect(pids.length).toBeGreaterThanOrEqual(4); // postgres, anvil, ponder, worker
    const killed = Date.now();
    platform.kill("SIGKILL");
    /** Gone, or a zombie nobody has reaped yet. */
    const gone = (pid: number) =>
      !existsSync(`/proc/${pid}/stat`) || readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
    while (!pids.every(gone)) {
      if (Date.now() - killed > 20_000) throw new Error(`still running: ${pids.filter((pid) => !gone(pid))}`);
      await sleep(100);
    }
    console.log(`supervisor SIGKILL: its ${pids.length} children gone after ${(Date.now() - killed) / 1000} s`);
  });
});
