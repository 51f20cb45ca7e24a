// Issue #39's figures: the platform's bundler (JSON-RPC at /api/v2/bundler) beside a real peer, Pimlico's Alto (unsafe
// mode, several executor keys), on the same anvil of the same stack in the same run, with the same workload: the same
// pre-deployed SimpleAccounts on EntryPoint v0.7 sending the same kind of UserOperations (same call, same explicit gas
// fields) over parallel nonce keys, through viem's bundler client. The platform is run in both validation modes: its
// own host in the embedded default (`BUNDLER_VALIDATION=unsafe`) and a further host on the same database and chain
// with `BUNDLER_VALIDATION=safe` (ERC-7562's traced rules); Alto stays in unsafe mode. Per bundler: UserOperations per
// second from the first send until the last is on chain, and the acceptance time (eth_sendUserOperation until its
// hash is returned), in rounds of the three, each round begun by the next side (medians reported), as the machine's
// load varies. Acceptance is compared at one load for all: the closed loop's opening burst (every lane's first send
// at once) and the open loop's fixed rates. Over the whole closed loop each side is offered load at its own inclusion
// rate (the faster includer gets more), so that figure is printed but is no comparison.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, type Hex, keccak256, parseEther, toHex } from "viem";
import { formatUserOperationRequest } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { anvilAccount } from "../test/support/api-flows.ts";
import { bootStack, stackChain } from "../test/support/stack.ts";
import { installAlto, startAlto } from "./alto.ts";
import { chainClients } from "./chain-clients.ts";
import { runClientProcess } from "./client-process.ts";
import { startExtraHost } from "./extra-host.ts";
import { indexCaughtUp } from "./index-caught-up.ts";
import { keyedNonce, laneNonces } from "./nonce-lanes.ts";
import { type BenchAccount, simpleAccounts } from "./simple-accounts.ts";
import { percentile, summary } from "./stats.ts";

const SENDERS = Number(process.env.BUNDLER_BENCH_SENDERS ?? 32);
/** Thirty (960 operations a run): a throughput at sustained load. At ten a run lasted 1.5-3 s, mostly its opening
 * burst and its tail (the last few operations of a run wait for a bundle of their own), and one side's runs spread
 * by up to two-fold within a bench (the platform 134-269 ops/s, Alto 69-84); at thirty by 6-20 %. */
const ROUNDS = Number(process.env.BUNDLER_BENCH_ROUNDS ?? 30);
/** Nonce keys per account used at once (the platform's mempool holds 4 operations of an unstaked sender, ERC-7562). */
const LANES = Number(process.env.BUNDLER_BENCH_LANES ?? 4);
const ALTO_EXECUTORS = Number(process.env.BUNDLER_BENCH_ALTO_EXECUTORS ?? 3);
/** Five: one run in three could catch a pause (the embedded chain's state save every 30 s, a cold first run) that
 * moved a median of three by up to a third. */
const RUNS = Number(process.env.BUNDLER_BENCH_RUNS ?? 5);
/** The open loop's loads (operations a second: one well under what Alto includes, one near it), each for
 * OPEN_SECONDS a run. */
const OPEN_RATES = (process.env.BUNDLER_BENCH_OPEN_RATES ?? "40,80").split(",").map(Number);
const OPEN_SECONDS = Number(process.env.BUNDLER_BENCH_OPEN_SECONDS ?? 4);
const openOps = (rate: number) => Math.round(rate * OPEN_SECONDS);

interface Run {
  startedAt: number;
  finishedAt: number;
  latencies: number[];
  accepts: number[];
  /** Each lane's first acceptance: in the closed loop, the burst of every lane's first send at once. */
  openingAccepts: number[];
  bundles: number;
  /** Sends the sender's mempool limit refused (sent again by the client). */
  throttled: number;
  /** Sends answered with JSON-RPC's internal error (-32603), sent again by the client. */
  retried: number;
}

export async function benchBundlerThroughput(): Promise<void> {
  installAlto(); // before the stack: npm ci would load the machine (and blocks this process) while it runs
  const stack = await bootStack({ API_KEY_RATE_LIMIT: "100000000" });
  const dir = mkdtempSync(join(tmpdir(), "bundler-bench-"));
  let alto: { stop(): Promise<void> } | undefined;
  let safeHost: { close(): Promise<void> } | undefined;
  try {
    const chain = stackChain(stack);
    const rpcUrl = stack.platform.credentials.rpcUrl;
    const entryPoint = stack.platform.manifest.entryPointV07 as Address;
    const { accounts, operation } = await simpleAccounts({
      chain,
      entryPoint,
      version: "0.7",
      deployer: anvilAccount(9),
      count: SENDERS,
    });
    // Every operation of every run signed before the first starts, each run on nonce keys of its own (LANES of them
    // from its first key). A lane is one account's operations under one key.
    const signLanes = async (firstKey: bigint) =>
      (
        await Promise.all(
          accounts.map((account: BenchAccount) =>
            Promise.all(
              laneNonces(ROUNDS, LANES, firstKey).map((nonces) =>
                Promise.all(
                  nonces.map(async (nonce) => {
                    const { op, hash } = await operation(account, nonce);
                    return { op: formatUserOperationRequest(op), hash };
                  }),
                ),
              ),
            ),
          ),
        )
      ).flat();
    // The open loop's operations: one each on a key of its own, the senders taken in turn.
    const signSingles = (firstKey: bigint, count: number) =>
      Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const { op, hash } = await operation(accounts[i % accounts.length]!, keyedNonce(firstKey + BigInt(i), 0n));
          return [{ op: formatUserOperationRequest(op), hash }];
        }),
      );
    const SIDES = 3; // platform unsafe, Alto, platform safe
    const firstKey = (run: number, side: number) => 1n + BigInt((SIDES * run + side) * LANES);
    const signed = await Promise.all(
      Array.from({ length: RUNS }, (_, r) =>
        Promise.all(Array.from({ length: SIDES }, (_, side) => signLanes(firstKey(r, side)))),
      ),
    );
    const mostOpenOps = Math.max(...OPEN_RATES.map(openOps));
    const openFirstKey = (load: number, run: number, side: number) =>
      1_000_000n + BigInt(((load * RUNS + run) * SIDES + side) * mostOpenOps);
    // Per load, per run, per side.
    const singles = await Promise.all(
      OPEN_RATES.map((rate, load) =>
        Promise.all(
          Array.from({ length: RUNS }, (_, r) =>
            Promise.all(
              Array.from({ length: SIDES }, (_, side) => signSingles(openFirstKey(load, r, side), openOps(rate))),
            ),
          ),
        ),
      ),
    );
    const total = SENDERS * ROUNDS;

    // Alto's executors and utility account: fresh keys funded from one of anvil's accounts, in nonce order.
    const key = (name: string): Hex => keccak256(toHex(`bundler bench ${name}`));
    const executorKeys = Array.from({ length: ALTO_EXECUTORS }, (_, i) => key(`alto executor ${i}`));
    const utilityKey = key("alto utility");
    const { client, wallet } = chainClients(chain, anvilAccount(7));
    for (const funded of [...executorKeys, utilityKey]) {
      const hash = await wallet.sendTransaction({ to: privateKeyToAccount(funded).address, value: parseEther("100") });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    }
    const peer = await startAlto({ rpcUrl, entryPoints: [entryPoint], executorKeys, utilityKey });
    alto = peer;
    const safe = await startExtraHost(stack, { BUNDLER_VALIDATION: "safe" });
    safeHost = safe;

    const run = async (name: string, lanes: unknown, env: Record<string, string>): Promise<Run> => {
      const opsFile = join(dir, `${name}.json`);
      writeFileSync(opsFile, JSON.stringify(lanes));
      return JSON.parse(
        await runClientProcess("bundler-client.ts", {
          ...env,
          ENTRY_POINT: entryPoint,
          RPC_URL: rpcUrl,
          OPS_FILE: opsFile,
        }),
      );
    };
    const platformAt = (baseUrl: string) => ({
      BUNDLER_URL: `${baseUrl}/api/v2/bundler`,
      API_KEY: stack.platform.credentials.apiKey,
    });
    const sideEnv: Record<string, string>[] = [
      platformAt(stack.platform.baseUrl),
      { BUNDLER_URL: peer.url },
      platformAt(safe.baseUrl),
    ];
    // Each run begins once the index has read the chain to its head: the index reads every EntryPoint's events,
    // Alto's bundles too, and a run leaves it behind (up to ~1 s here), catching up on the CPU of the next run's
    // opening burst, whichever side that is.
    const caughtUpWaits: number[] = [];
    /** Rounds of the three sides, each round begun by the next side: none always runs first (cold) or right after
     * a platform run's tail. Returns the runs per side (unsafe, Alto, safe). */
    const rounds = async (name: string, lanesOf: unknown[][], extra: Record<string, string> = {}) => {
      const runs: Run[][] = [[], [], []];
      for (const [r, lanes] of lanesOf.entries())
        for (let i = 0; i < SIDES; i++) {
          const side = (r + i) % SIDES;
          const waitStarted = performance.now();
          await indexCaughtUp(stack);
          caughtUpWaits.push(performance.now() - waitStarted);
          runs[side]!.push(await run(`${name}-${side}-${r}`, lanes[side], { ...sideEnv[side]!, ...extra }));
        }
      return runs;
    };
    const [unsafeRuns, altoRuns, safeRuns] = (await rounds("closed", signed)) as [Run[], Run[], Run[]];
    const openRuns: Run[][][] = []; // per load: the runs per side (unsafe, Alto, safe)
    for (const [load, rate] of OPEN_RATES.entries())
      openRuns.push(await rounds(`open-${rate}`, singles[load]!, { RATE: String(rate) }));

    const seconds = (r: Run) => (r.finishedAt - r.startedAt) / 1000;
    const rate = (r: Run) => total / seconds(r);
    const median = (values: number[]) => percentile(values, 50);
    const rates = (runs: Run[]) => runs.map(rate);
    const acceptP50s = (runs: Run[], field: "accepts" | "openingAccepts" = "accepts") =>
      runs.map((r) => percentile(r[field], 50));
    const line = (label: string, runs: Run[]) => {
      const bundles = runs.reduce((n, r) => n + r.bundles, 0);
      // Each run with its operations a bundle: a slow run with small bundles is bundling's own cost, not the machine.
      return `  ${label}, send to on chain: median ${median(rates(runs)).toFixed(1)} ops/s (runs: ${runs
        .map((r) => `${rate(r).toFixed(1)} at ${(total / r.bundles).toFixed(1)}/bundle`)
        .join(", ")}; ${((total * runs.length) / bundles).toFixed(1)} ops a bundle on average)`;
    };
    const altoVersion = JSON.parse(
      readFileSync(join(import.meta.dirname, "peers/alto/node_modules/@pimlico/alto/package.json"), "utf8"),
    ).version;
    console.log(
      `bundler beside Alto (issue #39; EntryPoint v0.7, ${SENDERS} SimpleAccounts x ${ROUNDS} operations a run, ${LANES} nonce keys per account in parallel, ${RUNS} rounds of platform unsafe, Alto, platform safe, rotated; Alto ${altoVersion}, unsafe mode, ${ALTO_EXECUTORS} executors)`,
    );
    console.log(line("Alto", altoRuns));
    console.log(
      `  before each run, until the index had read the chain's head: ${summary(caughtUpWaits)} (the previous run's tail)`,
    );
    const all = (runs: Run[], field: "accepts" | "latencies") => runs.flatMap((r) => r[field]);
    /** Refusals by the sender's mempool limit (-32504) and internal errors (-32603) the runs met, if any. */
    const resentNote = (runs: Run[]) => {
      const n = runs.reduce((sum, r) => sum + r.throttled, 0);
      const failed = runs.reduce((sum, r) => sum + r.retried, 0);
      return `${n > 0 ? `; ${n} sends refused by the sender limit and sent again` : ""}${failed > 0 ? `; ${failed} sends answered -32603 (internal error) and sent again` : ""}`;
    };
    for (const [mode, runs] of [
      ["unsafe", unsafeRuns],
      ["safe", safeRuns],
    ] as const) {
      console.log(`  BUNDLER_VALIDATION=${mode}:`);
      console.log(line(`platform bundler (POST /api/v2/bundler, ${mode})`, runs));
      console.log(
        `  bundler/alto ratio: ${(median(rates(runs)) / median(rates(altoRuns))).toFixed(2)} (${mode}; of the medians; target >= 1.5)`,
      );
      console.log(
        `  acceptance p50 (eth_sendUserOperation to its hash), median of the runs: bundler ${median(acceptP50s(runs)).toFixed(0)} ms, alto ${median(acceptP50s(altoRuns)).toFixed(0)} ms (${mode}; each side at the load its own inclusion offers: not the same load)`,
      );
      console.log(
        `  acceptance p50 of the opening burst (every lane's first send at once, ${SENDERS * LANES} a run: the same load for all), median of the runs: bundler ${median(acceptP50s(runs, "openingAccepts")).toFixed(0)} ms, alto ${median(acceptP50s(altoRuns, "openingAccepts")).toFixed(0)} ms (${mode}; target: bundler <= alto)`,
      );
      console.log(`  acceptance, all runs, bundler ${mode}: ${summary(all(runs, "accepts"))}${resentNote(runs)}`);
      for (const [load, rate] of OPEN_RATES.entries()) {
        const [unsafeOpen, altoOpen, safeOpen] = openRuns[load] as [Run[], Run[], Run[]];
        const open = mode === "unsafe" ? unsafeOpen : safeOpen;
        console.log(
          `  acceptance p50 at one load for all (open loop, ${rate} operations/s, ${openOps(rate)} a run), median of the runs: bundler ${median(acceptP50s(open)).toFixed(0)} ms, alto ${median(acceptP50s(altoOpen)).toFixed(0)} ms (${mode}; target: bundler <= alto; all runs: bundler ${summary(all(open, "accepts"))}${resentNote(open)}; alto ${summary(all(altoOpen, "accepts"))}${resentNote(altoOpen)})`,
        );
        console.log(
          `    send to on chain at ${rate} operations/s, all runs: bundler ${summary(all(open, "latencies"))}; alto ${summary(all(altoOpen, "latencies"))}`,
        );
      }
      console.log(`  send to on chain, all runs, bundler ${mode}: ${summary(all(runs, "latencies"))}`);
    }
    console.log(`  acceptance, all runs, alto: ${summary(all(altoRuns, "accepts"))}${resentNote(altoRuns)}`);
    console.log(`  send to on chain, all runs, alto: ${summary(all(altoRuns, "latencies"))}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await safeHost?.close();
    await alto?.stop();
    await stack.stop();
  }
}
