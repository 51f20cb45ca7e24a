// The chaos suite's scenarios: what each does to the platform in the middle of a burst of writes, and from when its
// recovery is timed (the moment the platform is left to itself).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRpcFaultProxy } from "../../scripts/chaos/rpc-fault-proxy.ts";
import { ANVIL_FUNDER_KEY, rpcCall, startChain } from "../../scripts/infra/anvil.ts";
import { freePort } from "../../test/support/stack.ts";
import type { PlatformProcess } from "./platform-process.ts";
import { type Fault, readyz, restartsOf } from "./recovery.ts";
import type { Writers } from "./writers.ts";

export interface ScenarioRun {
  platform: PlatformProcess;
  writers: Writers;
  /** The burst's size. */
  count: number;
  /** Adds a line to the scenario's notes. */
  note(line: string): void;
}

/** What the platform runs against when it is not its own embedded chain. */
export interface Setup {
  overrides: Record<string, string>;
  /** The chain's own RPC URL, for the audit (never through the fault proxy). */
  auditRpcUrl: string;
  /** Figures of the setup itself (e.g. the proxy's counts), for the notes. */
  notes(): string;
  cleanup(): Promise<void>;
}

export interface Scenario {
  name: string;
  /** The fault, in a few words (the summary's legend). */
  fault: string;
  setup?(): Promise<Setup>;
  /** Injects the fault during the burst; resolves to when recovery is timed from (undefined: not timed). */
  inject(run: ScenarioRun): Promise<Fault | undefined>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `share` of the burst has been accepted: the fault comes mid-burst. */
async function midBurst(run: ScenarioRun, share: number) {
  while (run.writers.accepted() < Math.ceil(run.count * share)) await sleep(20);
}

function killPart(part: string): Scenario["inject"] {
  return async (run) => {
    await midBurst(run, 0.25);
    const restartsBefore = restartsOf(await readyz(run.platform.credentials), part);
    process.kill(run.platform.pidOf(part), "SIGKILL");
    return { at: Date.now(), restarted: { part, restartsBefore } };
  };
}

const STALL_MS = 30_000;

export const SCENARIOS: Scenario[] = [
  {
    name: "postgres-killed",
    fault: "SIGKILL of the embedded PostgreSQL's postmaster",
    inject: killPart("postgres"),
  },
  {
    name: "worker-killed",
    fault: "SIGKILL of the worker process",
    inject: killPart("worker"),
  },
  {
    name: "host-killed",
    fault: "SIGKILL of the supervisor (`npm start`), then `npm start` again on the same data dir",
    async inject(run) {
      await midBurst(run, 0.25);
      await run.platform.killSupervisor();
      const killed = Date.now();
      await run.platform.startAgain();
      run.note(`started again in ${((Date.now() - killed) / 1000).toFixed(1)} s`);
      return { at: killed };
    },
  },
  {
    name: "chain-stalled",
    fault: `SIGSTOP of anvil for ${STALL_MS / 1000} s, then SIGCONT (recovery timed from SIGCONT)`,
    async inject(run) {
      await midBurst(run, 0.25);
      const anvil = run.platform.pidOf("anvil");
      process.kill(anvil, "SIGSTOP");
      const stopped = Date.now();
      let slowest = 0;
      let answers = 0;
      try {
        while (Date.now() - stopped < STALL_MS) {
          const { status, ms } = await readyz(run.platform.credentials);
          if (status !== 0) answers += 1;
          slowest = Math.max(slowest, ms);
          await sleep(1_000);
        }
      } finally {
        process.kill(anvil, "SIGCONT");
      }
      run.note(`/readyz during the stall: ${answers} answers, slowest ${(slowest / 1000).toFixed(2)} s`);
      return { at: Date.now() };
    },
  },
  {
    name: "flaky-rpc",
    fault: "RPC_URL through the fault proxy: 10 % 502, 3 % dropped, 5 % delayed 0.5 s, 30 % of sends' answers lost",
    async setup() {
      const dir = mkdtempSync(join(tmpdir(), "chaos-anvil-"));
      const chain = await startChain({
        dataDir: dir,
        port: await freePort(),
        ephemeral: true,
        mining: "interval",
        blockTimeSeconds: 1,
      });
      const proxy = await startRpcFaultProxy(chain.rpcUrl, {
        errorRate: 0.1,
        dropRate: 0.03,
        delayRate: 0.05,
        delayMs: 500,
        dropSendAnswerRate: 0.3,
      });
      return {
        overrides: { RPC_URL: proxy.url, CHAIN_ID: String(chain.chainId), DEPLOYER_PRIVATE_KEY: ANVIL_FUNDER_KEY },
        auditRpcUrl: chain.rpcUrl,
        notes: () => {
          const c = proxy.counts;
          return `proxy: ${c.requests} requests, ${c.errors} x 502, ${c.drops} dropped, ${c.delays} delayed, ${c.droppedSendAnswers} send answers lost`;
        },
        async cleanup() {
          await proxy.stop();
          await chain.stop();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    async inject() {
      return undefined; // the faults last the whole run, start included
    },
  },
  {
    name: "reorg",
    fault: "anvil_reorg of depth 1, 2, 3, 1, 2, 3 at 1/7 … 6/7 of the burst accepted",
    async inject(run) {
      const depths = [1, 2, 3, 1, 2, 3];
      let last = Date.now();
      for (const [i, depth] of depths.entries()) {
        await midBurst(run, (i + 1) / (depths.length + 1));
        await rpcCall(run.platform.credentials.rpcUrl, "anvil_reorg", [depth, []]);
        last = Date.now();
      }
      run.note(`${depths.length} reorgs (depths ${depths.join(", ")})`);
      return { at: last };
    },
  },
];
