// The platform's host and worker processes killed with SIGKILL in the middle of a batch of writes, restarted on the same data, and the
// client retrying every write with its idempotency key: every write is done exactly once.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { type Address, createPublicClient, defineChain, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAbi } from "../abis/Token.ts";
import { removeDataDir } from "../scripts/infra/data-dir.ts";
import { ROOT } from "../scripts/platform.ts";
import { json, platformDbUrl, testEnv } from "./support/stack.ts";

const WRITES = 60;
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("a crash in the middle of a batch", () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let platform: ChildProcess | undefined;

  async function start(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts/start.ts")], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", () => {});
    const deadline = Date.now() + 120_000;
    while (!output.includes("Ready in")) {
      if (child.exitCode !== null) throw new Error(`the platform exited during start:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the platform did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return child;
  }

  beforeAll(async () => {
    // The killed worker's jobs are released 8 s after its last heartbeat (20 s by default): at the new one's start.
    ({ dataDir, env } = await testEnv({ WORKER_DEAD_AFTER_SECONDS: "8" }));
    platform = await start();
  });
  afterAll(async () => {
    if (platform && platform.exitCode === null) {
      const exited = new Promise((r) => platform?.once("exit", r));
      platform.kill("SIGTERM");
      await exited;
    }
    removeDataDir(dataDir);
  });

  it("finishes every write exactly once after SIGKILL and a restart", async () => {
    const { baseUrl, apiKey, rpcUrl, organizationId } = JSON.parse(
      readFileSync(join(dataDir, "credentials.json"), "utf8"),
    );
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { "x-api-key": apiKey, "content-type": "application/json", ...(init.headers ?? {}) },
      });
    const created = await json(
      await api("/api/v2/tokens", {
        method: "POST",
        headers: { prefer: "wait=60" },
        body: JSON.stringify({ templateId: "deposit", name: "Crash", symbol: "CRSH" }),
      }),
    );
    const token = created.data.tokenAddress as Address;
    const mint = (i: number) =>
      api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        headers: { "idempotency-key": `crash-${i}` },
        body: JSON.stringify({ recipients: [RECIPIENT], amounts: [String(i + 1)] }),
      });

    const db = new pg.Client({
      connectionString: platformDbUrl(env),
    });
    db.on("error", () => {});
    await db.connect();
    const progress = async () =>
      (
        await db.query(
          "select count(*) filter (where status <> 'QUEUED')::int as n from platform.transaction_requests where idempotency_key like 'crash-%'",
        )
      ).rows[0].n;

    // Fire the batch; kill the host process and the worker process (both SIGKILL) once part of it is on its way.
    const inFlight = Array.from({ length: WRITES }, (_, i) => mint(i).catch(() => undefined));
    const deadline = Date.now() + 60_000;
    while ((await progress()) < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const worker = JSON.parse(readFileSync(join(dataDir, "run", "worker.pid"), "utf8")).pid as number;
    process.kill(worker, "SIGKILL");
    platform?.kill("SIGKILL");
    await Promise.all(inFlight);
    await db.end();

    // Restart on the same data (the children the dead process left are stopped and started anew), then retry all.
    platform = await start();
    const retries = await Promise.all(Array.from({ length: WRITES }, (_, i) => mint(i)));
    for (const res of retries) {
      if (![200, 202].includes(res.status)) throw new Error(`a retry answered ${res.status}: ${await res.text()}`);
    }

    const db2 = new pg.Client({
      connectionString: platformDbUrl(env),
    });
    await db2.connect();
    try {
      const finalDeadline = Date.now() + 120_000;
      for (;;) {
        const { rows } = await db2.query(
          "select status, count(*)::int as n from platform.transaction_requests where idempotency_key like 'crash-%' group by 1",
        );
        const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]));
        if (byStatus.COMPLETED === WRITES) break;
        if (Date.now() > finalDeadline) throw new Error(`not all completed: ${JSON.stringify(byStatus)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const { rows } = await db2.query(
        "select nonce, from_address from platform.transaction_requests where idempotency_key like 'crash-%' order by nonce",
      );
      expect(rows).toHaveLength(WRITES); // one request per key: the retries attached to the first ones
      const nonces = rows.map((r) => r.nonce);
      expect(nonces).toEqual(Array.from({ length: WRITES }, (_, i) => nonces[0] + i)); // no gap, no duplicate
      const chain = createPublicClient({
        chain: defineChain({
          id: 31337,
          name: "anvil",
          nativeCurrency: { name: "E", symbol: "E", decimals: 18 },
          rpcUrls: { default: { http: [rpcUrl] } },
        }),
        transport: http(),
      });
      // Exactly one mint per write: the supply is their sum, and the signer sent nothing else after them.
      const sum = BigInt((WRITES * (WRITES + 1)) / 2);
      expect(await chain.readContract({ address: token, abi: TokenAbi, functionName: "totalSupply" })).toBe(sum);
      expect(await chain.getTransactionCount({ address: rows[0].from_address })).toBe(nonces.at(-1) + 1);
      expect(organizationId).toBeTruthy();
    } finally {
      await db2.end();
    }
  });
});
