// Issue #5's figures: indexing throughput (events/s) of the platform's Ponder app backfilling INDEX_BENCH_EVENTS token
// events on anvil, beside a bare Ponder app (bench/bare-ponder) indexing only the ERC-20 Transfer of the same token on
// the same chain and database server, one after the other, as a ratio.
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import {
  type Abi,
  type Address,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseEventLogs,
  slice,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { SystemFactoryAbi } from "../abis/SystemFactory.ts";
import { TokenAbi } from "../abis/Token.ts";
import { TokenFactoryAbi } from "../abis/TokenFactory.ts";
import { createIndexStatus } from "../host/index-status.ts";
import { compileContracts } from "../scripts/contracts/compile.ts";
import { ensureDeployment } from "../scripts/contracts/deploy.ts";
import { ANVIL_FUNDER_KEY, rpcCall, startChain } from "../scripts/infra/anvil.ts";
import { removeDataDir } from "../scripts/infra/data-dir.ts";
import { startPonder } from "../scripts/infra/ponder.ts";
import { startPostgres } from "../scripts/infra/postgres.ts";
import { LOCAL_RPC_LANES } from "../src/index-chains.ts";
import { freePort } from "../test/support/stack.ts";
import { chainClients } from "./chain-clients.ts";

const EVENTS = Number(process.env.INDEX_BENCH_EVENTS ?? 100_000);
const BATCH = 100; // recipients per batchMint
const ROUNDS_PER_BLOCK = 10;
/** Backfills of each app, alternating; the fastest of each is reported, which damps other load on the machine. */
const RUNS = Number(process.env.INDEX_BENCH_RUNS ?? 3);
const ROOT = resolve(import.meta.dirname, "..");
const FLOAT = 10n ** 30n; // minted to the issuer, who makes the transfers
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits });

/** A distinct, fresh holder per index. */
const holder = (i: number): Address => slice(keccak256(toHex(i)), 12);

interface Generated {
  token: Address;
  events: number;
  holders: number;
  transactions: number;
  blocks: number;
  seconds: number;
  head: number;
}

/**
 * A system and a deposit token without features (their hooks only slow the generation: the index reads no events of
 * theirs), then rounds of one batchMint to BATCH new holders and one issuer transfer to one of them: raw signed
 * transactions sent in nonce order, each send answered before the next (anvil stalls on out-of-order nonces), no
 * receipt awaited (the final supply and issuer balance prove that every one succeeded).
 */
async function generateEvents(rpcUrl: string, systemFactory: Address): Promise<Generated> {
  const account = privateKeyToAccount(ANVIL_FUNDER_KEY);
  const { client, wallet } = chainClients(anvil, account, http(rpcUrl));
  const send = async (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
    const hash = await wallet.writeContract({ address, abi, functionName, args } as never);
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted (${hash})`);
    return receipt.logs;
  };
  const systemLogs = await send(systemFactory, SystemFactoryAbi, "createSystem", [account.address]);
  const [{ args: system }] = parseEventLogs({ abi: SystemFactoryAbi, logs: systemLogs, eventName: "SystemCreated" });
  const tokenLogs = await send(system.tokenFactory, TokenFactoryAbi, "createToken", ["deposit", "Bench", "BNCH", 2]);
  const [{ args: created }] = parseEventLogs({ abi: SystemFactoryAbi, logs: tokenLogs, eventName: "TokenCreated" });
  const token = created.token;
  await send(token, TokenAbi, "mint", [account.address, FLOAT]);

  const rounds = Math.ceil(EVENTS / BATCH);
  const calls: Hex[] = [];
  let minted = 0n;
  for (let r = 0; r < rounds; r++) {
    const to = Array.from({ length: BATCH }, (_, i) => holder(r * BATCH + i));
    const amounts = to.map((_, i) => 1000n + BigInt(i));
    minted += amounts.reduce((a, b) => a + b, 0n);
    calls.push(encodeFunctionData({ abi: TokenAbi, functionName: "batchMint", args: [to, amounts] }));
    calls.push(encodeFunctionData({ abi: TokenAbi, functionName: "transfer", args: [to[r % BATCH], 7n] }));
  }
  const [nonce, fees, mintGas, transferGas] = await Promise.all([
    client.getTransactionCount({ address: account.address, blockTag: "pending" }),
    client.estimateFeesPerGas(),
    client.estimateGas({ account, to: token, data: calls[0] }),
    client.estimateGas({ account, to: token, data: calls[1] }),
  ]);
  // anvil recomputes the whole state root for every block, which grows with the holders (0.3 s an empty block at
  // 100k): automine off, a block mined on demand per ROUNDS_PER_BLOCK rounds.
  await rpcCall(rpcUrl, "evm_setAutomine", [false]);
  await rpcCall(rpcUrl, "evm_setBlockGasLimit", [toHex(3n * BigInt(ROUNDS_PER_BLOCK) * (mintGas + transferGas))]);
  const mine = () => rpcCall(rpcUrl, "anvil_mine", ["0x1"]);
  const started = performance.now();
  for (const [i, data] of calls.entries()) {
    const raw = await account.signTransaction({
      chainId: anvil.id,
      type: "eip1559",
      to: token,
      data,
      gas: ((i % 2 ? transferGas : mintGas) * 13n) / 10n,
      nonce: nonce + i,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    await client.sendRawTransaction({ serializedTransaction: raw });
    if ((i + 1) % (2 * ROUNDS_PER_BLOCK) === 0 || i === calls.length - 1) await mine();
  }
  const seconds = (performance.now() - started) / 1000;
  const read = (functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: token, abi: TokenAbi, functionName, args } as never) as Promise<bigint>;
  const [supply, float] = await Promise.all([read("totalSupply"), read("balanceOf", [account.address])]);
  if (supply !== FLOAT + minted || float !== FLOAT - 7n * BigInt(rounds)) {
    throw new Error(`Some generated transactions failed: supply ${supply}, issuer balance ${float}`);
  }
  // Past the 30 blocks Ponder leaves unsettled on chain 31337, so every event is in the backfill.
  for (let b = 0; b < 32; b++) await mine();
  const head = Number(await client.getBlockNumber());
  const blocks = Math.ceil(rounds / ROUNDS_PER_BLOCK);
  return {
    token,
    events: 1 + rounds * (BATCH + 1),
    holders: rounds * BATCH,
    transactions: calls.length,
    blocks,
    seconds,
    head,
  };
}

/** Sums a Prometheus metric's samples whose labels include `label` (e.g. `step="index"`). */
function metricSum(text: string, name: string, label = ""): number {
  const re = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, "gm");
  let sum = 0;
  for (const m of text.matchAll(re)) if ((m[1] ?? "").includes(label)) sum += Number(m[2]);
  return sum;
}

interface Backfill {
  /** `ponder start` until its HTTP server answers, right before the backfill starts (build, database set-up). */
  startup: number;
  /** From then until /status reports the chain head (the backfill, index creation, the last blocks). */
  backfill: number;
  rows: number;
  /** Ponder's own metrics of the backfill: blocked on the RPC fetch (and its writes to the RPC cache)... */
  waiting: number;
  /** ...running the indexing functions, and writing their rows. */
  indexing: number;
  writing: number;
  /** Reads of rows from the database by the store API (finds and prefetch loads that missed the row cache). */
  databaseReads: number;
  /** JSON-RPC requests Ponder made, by method. */
  requests: Record<string, number>;
}

async function backfill(options: {
  root: string;
  schema: string;
  table: string;
  /** Which of its rows are the token's events. */
  where?: string;
  manifestPath: string;
  databaseUrl: string;
  rpcUrl: string;
  head: number;
  dataDir: string;
}): Promise<Backfill> {
  const { root, schema, databaseUrl, rpcUrl, manifestPath, dataDir } = options;
  const logFile = join(dataDir, "logs", `${schema}.log`);
  const started = performance.now();
  const indexer = await startPonder({
    ...{ root, schema, databaseUrl, dataDir, logFile },
    // The settings the platform gives an embedded chain, to both apps.
    chains: [
      {
        deployment: JSON.parse(readFileSync(manifestPath, "utf8")),
        rpcUrl,
        disableCache: true,
        rpcLanes: LOCAL_RPC_LANES,
      },
    ],
    port: await freePort(),
  });
  try {
    const up = performance.now();
    if (!(await createIndexStatus(indexer.url).waitForBlock(anvil.id, options.head, 240_000))) {
      throw new Error(`${schema} did not reach block ${options.head} in 240 s; see ${logFile}`);
    }
    const done = performance.now();
    const metrics = await (await fetch(`${indexer.url}/metrics`)).text();
    const seconds = (name: string, ...labels: string[]) =>
      labels.reduce((sum, label) => sum + metricSum(metrics, `ponder_historical_${name}`, label), 0) / 1000;
    const breakdown = {
      waiting: seconds("concurrency_group_duration", 'group="extract"'),
      indexing: seconds("transform_duration", 'step="index"'),
      writing: seconds("transform_duration", 'step="load"', 'step="finalize"', 'step="commit"'),
      // Rows the handlers' store calls had to read from the database (Ponder's row cache did not hold the table).
      databaseReads:
        metricSum(metrics, "ponder_indexing_cache_query_duration_count", 'method="find"') +
        metricSum(metrics, "ponder_indexing_cache_query_duration_count", 'method="load"'),
    };
    const requests: Record<string, number> = {};
    for (const m of metrics.matchAll(/^ponder_rpc_request_duration_count\{([^}]*)\} (\S+)$/gm)) {
      const method = /method="([^"]+)"/.exec(m[1])?.[1] ?? "?";
      requests[method] = (requests[method] ?? 0) + Number(m[2]);
    }
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const where = options.where ? ` where ${options.where}` : "";
    const { rows } = await db.query(`select count(*)::int as n from "${schema}"."${options.table}"${where}`);
    // Both apps start from an empty RPC cache (disableCache skips reading it, not writing it).
    await db.query("drop schema if exists ponder_sync cascade");
    await db.end();
    return {
      ...{ startup: (up - started) / 1000, backfill: (done - up) / 1000, rows: rows[0].n },
      ...{ ...breakdown, requests },
    };
  } finally {
    await indexer.stop();
  }
}

export async function benchIndexingThroughput(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "index-bench-"));
  const stops: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
    removeDataDir(dataDir);
  };
  const onSignal = () => void cleanup().finally(() => process.exit(130));
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    const postgres = await startPostgres({ dataDir, port: await freePort() });
    stops.push(postgres.stop);
    const chain = await startChain({ dataDir, port: await freePort(), ephemeral: true });
    stops.push(chain.stop);
    const manifestPath = join(dataDir, "deployment.json");
    const { manifest } = await ensureDeployment({
      ...{ rpcUrl: chain.rpcUrl, chainId: chain.chainId, manifestPath },
      deployerKey: ANVIL_FUNDER_KEY,
      build: compileContracts(),
    });
    const gen = await generateEvents(chain.rpcUrl, manifest.systemFactory);

    // The bare app runs from a copy outside the repository: `ponder start` writes a ponder-env.d.ts beside its
    // config, which would clash with the root one in the repository's type check.
    const bareRoot = join(dataDir, "bare-ponder");
    cpSync(join(import.meta.dirname, "bare-ponder"), bareRoot, { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(bareRoot, "node_modules"));
    const bareManifest = join(dataDir, "bare-manifest.json");
    const { chainId, startBlock } = manifest;
    writeFileSync(bareManifest, JSON.stringify({ chainId, startBlock, token: gen.token }));

    const common = { databaseUrl: postgres.url, rpcUrl: chain.rpcUrl, head: gen.head, dataDir };
    const runs: { ours: Backfill[]; bare: Backfill[] } = { ours: [], bare: [] };
    for (let run = 0; run < RUNS; run++) {
      const platformApp = { root: ROOT, table: "activity_event", where: "log_token is not null", manifestPath };
      runs.ours.push(await backfill({ ...common, ...platformApp, schema: `bench_platform_${run}` }));
      const bareApp = { root: bareRoot, table: "transfer_event", manifestPath: bareManifest };
      runs.bare.push(await backfill({ ...common, ...bareApp, schema: `bench_bare_${run}` }));
    }
    const fastest = (list: Backfill[]) => list.reduce((a, b) => (b.backfill < a.backfill ? b : a));
    const [ours, bare] = [fastest(runs.ours), fastest(runs.bare)];
    for (const b of [...runs.ours, ...runs.bare]) {
      if (b.rows !== gen.events) throw new Error(`An index holds ${b.rows} events, not ${gen.events}`);
    }
    const rate = (b: Backfill) => b.rows / b.backfill;
    const wallRate = (b: Backfill) => b.rows / (b.startup + b.backfill);
    const perEvent = (b: Backfill) => ((b.indexing + b.writing) / b.rows) * 1e6;
    const report = (name: string, runs: Backfill[], table: string) => {
      const b = fastest(runs);
      console.log(
        `  ${name}: ${fmt(b.rows)} ${table} rows; startup ${fmt(b.startup, 1)} s, backfill to head ` +
          `${fmt(b.backfill, 1)} s = ${fmt(rate(b))} events/s; wall clock ${fmt(b.startup + b.backfill, 1)} s = ` +
          `${fmt(wallRate(b))} events/s`,
      );
      console.log(
        `    backfill: waiting on fetched data ${fmt(b.waiting, 1)} s, indexing functions ${fmt(b.indexing, 1)} s, ` +
          `writing rows ${fmt(b.writing, 1)} s = ${fmt(perEvent(b))} µs an event; ${fmt(b.databaseReads)} row reads ` +
          "from the database",
      );
      const calls = Object.entries(b.requests).sort(([, x], [, y]) => y - x);
      const total = calls.reduce((sum, [, n]) => sum + n, 0);
      console.log(`    JSON-RPC requests: ${fmt(total)} (${calls.map(([m, n]) => `${m} ${fmt(n)}`).join(", ")})`);
      if (RUNS > 1)
        console.log(`    fastest of ${RUNS} backfills: ${runs.map((r) => fmt(rate(r))).join(", ")} events/s`);
    };
    console.log("indexing throughput (issue #5)");
    console.log(
      `  chain: ${fmt(gen.events)} token events (MintCompleted/TransferCompleted, each with its ERC-20 Transfer) in ` +
        `${fmt(gen.transactions)} transactions and ${fmt(gen.blocks)} blocks (+32 empty), generated in ` +
        `${fmt(gen.seconds, 1)} s; a deposit token, ${fmt(gen.holders)} new holders`,
    );
    report("platform index (ponder.config.ts, src/)", runs.ours, "token log activity_event");
    report("bare ERC-20 Transfer index (bench/bare-ponder)", runs.bare, "transfer_event");
    console.log(
      `  ratio platform / bare: ${(rate(ours) / rate(bare)).toFixed(2)} backfill, ` +
        `${(wallRate(ours) / wallRate(bare)).toFixed(2)} wall clock, ` +
        `${(perEvent(bare) / perEvent(ours)).toFixed(2)} in indexing functions and row writes alone`,
    );
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    await cleanup();
  }
}
