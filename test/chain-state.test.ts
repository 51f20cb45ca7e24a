// The embedded chain's state is never torn (issue 36, part 4): the chain process is stopped with SIGTERM and then
// SIGKILLed with its anvil at awkward moments (as a service manager does), and every next start has the chain
// intact; a torn newest file falls back to the kept copy, and with no readable copy left the start fails at once in
// one line naming the file. A deployment through a flaky node (part 5) succeeds with every contract created once.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { startRpcFaultProxy } from "../scripts/chaos/rpc-fault-proxy.ts";
import { compileContracts } from "../scripts/contracts/compile.ts";
import { ensureDeployment } from "../scripts/contracts/deploy.ts";
import { ANVIL_FUNDER_KEY, rpcCall, startChain } from "../scripts/infra/anvil.ts";
import { stateFiles } from "../scripts/infra/chain-state.ts";
import { pidFile } from "../scripts/infra/orphans.ts";
import { duplicatesAndFailures, transactionsFrom } from "./support/deployer-transactions.ts";
import { freePort } from "./support/stack.ts";

const ROOT = resolve(import.meta.dirname, "..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const temps: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  await sleep(500);
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

interface ChainProcess {
  child: ChildProcess;
  /** Set when it came up. */
  rpcUrl?: string;
  /** The chain's start in the process (its own start, Node's and tsx's, excluded). */
  startMs?: number;
  /** Set when it ended instead. */
  exitCode?: number | null;
  stderr: string;
  ms: number;
  exited: Promise<void>;
}

/** test/support/chain-process.ts in DATA_DIR: resolves once it is up or has ended. */
async function startChainProcess(dataDir: string): Promise<ChainProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "test/support/chain-process.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, ANVIL_PORT: String(await freePort()), SAVE_INTERVAL_MS: "300" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const run: ChainProcess = {
    child,
    stderr: "",
    ms: 0,
    exited: new Promise((resolve) => child.once("exit", () => resolve())),
  };
  child.stderr?.on("data", (d) => (run.stderr += d));
  await new Promise<void>((resolve) => {
    child.stdout?.once("data", (d) => {
      ({ rpcUrl: run.rpcUrl, startMs: run.startMs } = JSON.parse(String(d)));
      resolve();
    });
    child.once("close", (code) => {
      run.exitCode = code;
      resolve();
    });
  });
  run.ms = performance.now() - started;
  return run;
}

describe("the embedded chain's state", () => {
  it("survives SIGTERM then SIGKILL at any moment; a torn newest file falls back; none left fails in one line", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "chain-state-e2e-"));
    temps.push(dataDir);
    const files = stateFiles(join(dataDir, "anvil"));
    const someone = "0x00000000000000000000000000000000000000aa";
    let chain = await startChainProcess(dataDir);
    const { manifest } = await ensureDeployment({
      rpcUrl: chain.rpcUrl!,
      chainId: 31337,
      deployerKey: ANVIL_FUNDER_KEY,
      manifestPath: join(dataDir, "deployments", "31337.json"),
      build: compileContracts(),
    });
    await rpcCall(chain.rpcUrl!, "anvil_setBalance", [someone, "0x2a"]);
    // Two saves after it: the second began after the deployment. A save renames the file aside before the new one
    // takes its name, so for a moment there is none: that moment is not a save.
    const newest = () => statSync(files.current, { throwIfNoEntry: false });
    let saved = newest();
    for (let saves = 0; saves < 2; await sleep(50)) {
      const now = newest();
      if (now && now.mtimeMs !== saved?.mtimeMs) [saves, saved] = [saves + 1, now];
    }
    const anvilsOwnSize = gunzipSync(
      Buffer.from((await rpcCall<string>(chain.rpcUrl!, "anvil_dumpState")).slice(2), "hex"),
    ).length;
    console.log(
      `chain state after the deployment: ${saved?.size} bytes saved (gzipped, traces dropped); ` +
        `anvil's own --state file would be ${anvilsOwnSize} bytes`,
    );

    const intact = async (rpcUrl: string) => {
      expect(await rpcCall<string>(rpcUrl, "eth_getCode", [manifest.systemFactory, "latest"])).not.toBe("0x");
      expect(await rpcCall(rpcUrl, "eth_getBalance", [someone, "latest"])).toBe("0x2a");
    };
    const starts: string[] = [];
    for (const killAfterMs of [0, 20, 50, 100, 200]) {
      const anvil = JSON.parse(readFileSync(pidFile(dataDir, "anvil"), "utf8")).pid as number;
      chain.child.kill("SIGTERM"); // saving its state, then stopping anvil
      await sleep(killAfterMs);
      // As a service manager ends a unit that does not stop in time: every process of it, anvil too.
      chain.child.kill("SIGKILL");
      try {
        process.kill(anvil, "SIGKILL");
      } catch {
        // already stopped
      }
      await chain.exited;
      chain = await startChainProcess(dataDir);
      expect(chain.rpcUrl, chain.stderr).toBeDefined();
      await intact(chain.rpcUrl!);
      starts.push(`${killAfterMs} ms: ${seconds(chain.startMs!)}`);
    }
    console.log(`SIGKILL this long after SIGTERM, then the next chain start (intact): ${starts.join(", ")}`);

    const stopping = performance.now();
    chain.child.kill("SIGTERM");
    await chain.exited;
    console.log(`a clean stop: ${seconds(performance.now() - stopping)}`);
    expect(chain.child.exitCode).toBe(0);

    writeFileSync(files.current, Buffer.from("torn")); // what a kill midway through a non-atomic write leaves
    chain = await startChainProcess(dataDir);
    expect(chain.rpcUrl, chain.stderr).toBeDefined();
    await intact(chain.rpcUrl!);
    expect(chain.stderr.trim().split("\n")).toEqual([
      expect.stringContaining(`The chain state ${files.current} cannot be loaded`),
    ]);
    expect(chain.stderr).toContain(`loading the kept copy ${files.kept}`);
    chain.child.kill("SIGTERM");
    await chain.exited;

    writeFileSync(files.current, "");
    writeFileSync(files.kept, "");
    chain = await startChainProcess(dataDir);
    expect(chain.exitCode).toBe(1);
    const lines = chain.stderr.trim().split("\n");
    expect(lines.at(-1)).toMatch(new RegExp(`^Start failed: The chain state ${files.kept} cannot be loaded \\(.*\\);`));
    expect(chain.ms).toBeLessThan(10_000); // not a 30 s timeout
    console.log(`a start with no readable state fails in ${seconds(chain.ms)}: ${lines.at(-1)}`);
  });
});

describe("a deployment through a flaky node", () => {
  it("succeeds behind 10 % 502 answers and 3 % dropped connections, every contract created once", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "flaky-deploy-e2e-"));
    temps.push(dataDir);
    const node = await startChain({ dataDir, port: await freePort(), ephemeral: true });
    const proxy = await startRpcFaultProxy(node.rpcUrl, {
      errorRate: 0.1,
      dropRate: 0.03,
      dropSendAnswerRate: 0.1,
      delayRate: 0.02,
      delayMs: 200,
    });
    try {
      // What a start with RPC_URL asks first.
      expect((await startChain({ rpcUrl: proxy.url, dataDir, port: 0 })).chainId).toBe(31337);
      const started = performance.now();
      const { manifest } = await ensureDeployment({
        rpcUrl: proxy.url,
        chainId: 31337,
        deployerKey: ANVIL_FUNDER_KEY,
        manifestPath: join(dataDir, "deployments", "31337.json"),
        build: compileContracts(),
      });
      const took = performance.now() - started;
      expect(await rpcCall<string>(node.rpcUrl, "eth_getCode", [manifest.systemFactory, "latest"])).not.toBe("0x");
      const sent = await transactionsFrom(node.rpcUrl, privateKeyToAccount(ANVIL_FUNDER_KEY).address);
      const { duplicated, failed } = duplicatesAndFailures(sent);
      console.log(
        `deployment through the fault proxy: ${seconds(took)}, ${sent.length} transactions, ${duplicated} duplicated, ` +
          `${failed} failed; proxy ${JSON.stringify(proxy.counts)}`,
      );
      expect({ duplicated, failed, sent: sent.length }).toEqual({ duplicated: 0, failed: 0, sent: 59 });
      expect(proxy.counts.errors + proxy.counts.drops).toBeGreaterThan(0);
    } finally {
      await proxy.stop();
      await node.stop();
    }
  });
});
