// `npm run chaos`: each scenario against a platform of its own, run as `npm start` runs it: a burst of CHAOS_WRITES
// mints (each amount distinct, each retried under its Idempotency-Key until terminal), a fault mid-burst, then the
// audit against the chain. One row per scenario, a summary table at the end; exits 1 if any write was duplicated or
// lost, a completed write's hash has no receipt, the index disagrees with the chain, a write did not complete within
// the clients' patience, or a scenario failed.
//   CHAOS_WRITES (200), CHAOS_ONLY=<names> (comma-separated), CHAOS_CONCURRENCY (16 clients)
import { cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address } from "viem";
import { rpcCall } from "../../scripts/infra/anvil.ts";
import { auditChain, indexMismatches } from "./audit.ts";
import { type PlatformProcess, startPlatformProcess } from "./platform-process.ts";
import { recoverySince } from "./recovery.ts";
import { SCENARIOS, type Scenario, type Setup } from "./scenarios.ts";
import { startWriters, type Writers } from "./writers.ts";

const WRITES = Number(process.env.CHAOS_WRITES ?? 200);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 16);
const ONLY = process.env.CHAOS_ONLY?.split(",").map((name) => name.trim());
/** How long a client retries one write before it gives up on it. */
const PATIENCE_MS = 300_000;

interface Row {
  scenario: string;
  accepted: number;
  completed: number;
  duplicated: number;
  lost: number;
  staleHashes: number;
  mismatches: number;
  readySeconds?: number;
  recoverySeconds?: number;
  notes: string[];
  error?: string;
}

/** Blocks mined after the token's creation before the burst starts. */
const SAFE_DEPTH = 4;

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createToken(platform: PlatformProcess, name: string): Promise<{ token: Address; block: number }> {
  const { baseUrl, apiKey } = platform.credentials;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/v2/tokens`, {
      method: "POST",
      headers: {
        "x-api-key": apiKey,
        "content-type": "application/json",
        "idempotency-key": `chaos-${name}`,
        prefer: "respond-async, wait=30",
      },
      body: JSON.stringify({ templateId: "deposit", name: `Chaos ${name}`, symbol: "CHAOS" }),
    }).catch(() => undefined);
    // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read loosely
    const body: any = await res?.json().catch(() => undefined);
    const address = body?.data?.tokenAddress;
    if (res?.status === 200 && address) return { token: address, block: Number(body.data.blockNumber) };
    if (Date.now() > deadline) throw new Error(`token creation: ${res?.status} ${JSON.stringify(body)}`);
    await sleep(res?.status === 202 ? 500 : 1_000);
  }
}

async function runScenario(scenario: Scenario): Promise<Row> {
  const row: Row = {
    scenario: scenario.name,
    accepted: 0,
    completed: 0,
    duplicated: 0,
    lost: 0,
    staleHashes: 0,
    mismatches: 0,
    notes: [],
  };
  let setup: Setup | undefined;
  let platform: PlatformProcess | undefined;
  let writers: Writers | undefined;
  let progress: NodeJS.Timeout | undefined;
  try {
    setup = await scenario.setup?.();
    const booted = Date.now();
    platform = await startPlatformProcess(setup?.overrides ?? {});
    row.notes.push(`started in ${((Date.now() - booted) / 1000).toFixed(1)} s`);
    const rpcUrl = setup?.auditRpcUrl ?? platform.credentials.rpcUrl;
    const { token, block } = await createToken(platform, scenario.name);
    // The token's creation deeper than any reorg of the burst can reach.
    while (Number(await rpcCall<string>(rpcUrl, "eth_blockNumber")) < block + SAFE_DEPTH) await sleep(250);
    writers = startWriters({
      credentials: platform.credentials,
      token,
      scenario: scenario.name,
      count: WRITES,
      concurrency: CONCURRENCY,
      patienceMs: PATIENCE_MS,
    });
    const burstStarted = Date.now();
    progress = setInterval(() => {
      const phases: Record<string, number> = {};
      for (const w of writers?.writes ?? []) phases[w.phase] = (phases[w.phase] ?? 0) + 1;
      say(`  … ${((Date.now() - burstStarted) / 1000).toFixed(0)} s: ${JSON.stringify(phases)}`);
    }, 15_000);
    const fault = await scenario.inject({
      platform,
      writers,
      count: WRITES,
      note: (line) => row.notes.push(line),
    });
    if (fault !== undefined) {
      const recovery = await recoverySince(fault, platform.credentials, writers);
      row.readySeconds = recovery.readySeconds;
      row.recoverySeconds = recovery.writeSeconds;
    }
    await writers.done;
    row.notes.push(`burst done in ${((Date.now() - burstStarted) / 1000).toFixed(1)} s`);
    await writers.confirmAll(PATIENCE_MS);

    const burst = writers.writes.filter((w) => !w.key.includes("-probe-"));
    row.accepted = burst.filter((w) => w.accepted).length;
    row.completed = burst.filter((w) => w.status === "COMPLETED").length;
    const other = burst.filter((w) => w.accepted && w.status !== "COMPLETED");
    if (other.length) row.notes.push(`not completed: ${other.map((w) => `${w.key} ${w.status}`).join(", ")}`);
    const refusals: Record<string, number> = {};
    for (const w of writers.writes)
      for (const [code, n] of Object.entries(w.refusals)) refusals[code] = (refusals[code] ?? 0) + n;
    if (Object.keys(refusals).length) row.notes.push(`answers retried: ${JSON.stringify(refusals)}`);

    const chain = await auditChain(rpcUrl, token, writers.writes);
    Object.assign(row, { duplicated: chain.duplicated, lost: chain.lost, staleHashes: chain.staleHashes });
    if (chain.supplyDifference !== 0n) row.notes.push(`totalSupply off by ${chain.supplyDifference}`);
    const index = await indexMismatches(platform.credentials, rpcUrl, token);
    row.mismatches = index.mismatches;
    if (index.detail) row.notes.push(index.detail);
  } catch (error) {
    row.error = error instanceof Error ? error.message.split("\n").slice(0, 3).join(" ") : String(error);
    if (platform) {
      row.notes.push(`platform said: ${platform.tail().split("\n").slice(-5).join(" | ")}`);
      const logs = join(tmpdir(), `chaos-${scenario.name}-logs`);
      try {
        cpSync(join(platform.dataDir, "logs"), logs, { recursive: true });
        row.notes.push(`its logs: ${logs}`);
      } catch {
        // no logs written yet
      }
    }
  } finally {
    clearInterval(progress);
    writers?.stop();
    if (setup) row.notes.push(setup.notes());
    await platform?.stop().catch(() => {});
    await setup?.cleanup().catch(() => {});
  }
  return row;
}

const failed = (row: Row) =>
  !!row.error || row.duplicated + row.lost + row.staleHashes + row.mismatches > 0 || row.completed < WRITES; // a write never accepted or never completed within the clients' patience
const seconds = (s?: number) => (s === undefined ? "–" : s.toFixed(1));

function table(rows: Row[]): string {
  const head =
    "| scenario | accepted | completed | duplicated | lost | stale hash | index mismatches | ready s | recovered s |";
  const lines = rows.map(
    (r) =>
      `| ${r.scenario} | ${r.accepted}/${WRITES} | ${r.completed} | ${r.duplicated} | ${r.lost} | ${r.staleHashes} | ` +
      `${r.mismatches} | ${seconds(r.readySeconds)} | ${seconds(r.recoverySeconds)}${r.error ? " | FAILED" : ""} |`,
  );
  return [head, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |", ...lines].join("\n");
}

const unknown = ONLY?.filter((name) => !SCENARIOS.some((s) => s.name === name)) ?? [];
if (unknown.length) {
  say(`unknown scenarios: ${unknown.join(", ")} (known: ${SCENARIOS.map((s) => s.name).join(", ")})`);
  process.exit(2);
}
const rows: Row[] = [];
for (const scenario of SCENARIOS.filter((s) => !ONLY || ONLY.includes(s.name))) {
  say(`${scenario.name}: ${scenario.fault}; ${WRITES} writes, ${CONCURRENCY} clients`);
  const row = await runScenario(scenario);
  rows.push(row);
  say(table([row]).split("\n")[2]);
  for (const note of row.notes) say(`  ${note}`);
  if (row.error) say(`  FAILED: ${row.error}`);
}
say(`\n${table(rows)}`);
process.exit(rows.some(failed) ? 1 : 0);
