// Issue #6's figures: requests per second and p50/p99 of a participant's activity feed and of one statistics route
// over an index of ACTIVITY_BENCH_BATCHES x (ACTIVITY_BENCH_HOLDERS + 1) activity events, beside a bare Hono route,
// with 32 connections; the target is p99 < 50 ms.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Address } from "viem";
import { ANVIL_FUNDER_KEY, startChain } from "../scripts/infra/anvil.ts";
import { removeDataDir } from "../scripts/infra/data-dir.ts";
import { type Member, operator } from "../test/support/organizations.ts";
import { bootStack, freePort, json, platformDbUrl, type TestStack } from "../test/support/stack.ts";
import { type Generated, sendBatchMints } from "./batch-mints.ts";
import { assertClean, LOAD_CONDITIONS, type LoadResult, line, load, startBare } from "./load.ts";

const BATCHES = Number(process.env.ACTIVITY_BENCH_BATCHES ?? 1000);
const HOLDERS = Number(process.env.ACTIVITY_BENCH_HOLDERS ?? 100);
const TARGET_P99_MS = 50;
const STATS = "/api/v2/system/stats/identity-count";
const INDEX_TIMEOUT_MS = 15 * 60_000;
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits });

export interface Populated {
  person: Member;
  token: Address;
  generated: Generated;
  /** From the last transaction mined until the index held every generated event. */
  indexSeconds: number;
}

async function createToken(stack: TestStack): Promise<Address> {
  const res = await stack.api("/api/v2/tokens", {
    method: "POST",
    headers: { prefer: "wait=60" },
    body: JSON.stringify({ templateId: "deposit", name: "Activity Bench", symbol: "ACTB" }),
  });
  if (res.status !== 200) throw new Error(`token creation answered ${res.status}: ${await res.text()}`);
  return (await json(res)).data.tokenAddress;
}

/** A person of the organisation, then BATCHES batchMints of HOLDERS fresh holders plus the person; waits for the index. */
export async function populate(stack: TestStack): Promise<Populated> {
  const { organizationId, rpcUrl } = stack.platform.credentials;
  const ops = operator(stack);
  const db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
  await db.connect();
  try {
    const person = await ops.member(organizationId, "member", "Bench Person");
    const token = await createToken(stack);
    const signer = await ops.signerAccount(organizationId);
    const generated = await sendBatchMints({
      ...{ rpcUrl, signer, token, batches: BATCHES, freshPerBatch: HOLDERS },
      alsoEvery: [person.wallet as Address],
    });
    const minedAt = performance.now();
    const views = stack.platform.config.INDEX_VIEWS_SCHEMA;
    const deadline = Date.now() + INDEX_TIMEOUT_MS;
    for (;;) {
      const { rows } = await db.query(
        `select count(*)::int as n from "${views}".activity_event where token = $1 and event_name = 'MintCompleted'`,
        [token.toLowerCase()],
      );
      if (rows[0].n >= generated.events) break;
      if (Date.now() > deadline) throw new Error(`The index holds ${rows[0].n} of ${generated.events} mints`);
      await new Promise((r) => setTimeout(r, 500));
    }
    return { person, token, generated, indexSeconds: (performance.now() - minedAt) / 1000 };
  } finally {
    await db.end();
    await ops.close();
  }
}

/** One 200 answer of `path` (the load's figures mean nothing otherwise); its body. */
async function probe(stack: TestStack, path: string, key: string) {
  const res = await stack.api(path, { key });
  const body = await json(res);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Loads the feed, the statistics route and the bare route one after the other; prints the figures. */
export async function measure(stack: TestStack, populated: Populated): Promise<void> {
  const { person, generated } = populated;
  const feedPath = `/api/v2/participants/${person.userId}/activities`;
  const feed = await probe(stack, feedPath, person.key);
  if (!(feed.meta?.total >= BATCHES) || !feed.data?.length || !feed.meta?.facets?.eventName)
    throw new Error(`${feedPath} is not the person's feed of ${BATCHES}+ events: ${JSON.stringify(feed.meta)}`);
  const stats = await probe(stack, STATS, person.key);
  const db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
  await db.connect();
  const views = stack.platform.config.INDEX_VIEWS_SCHEMA;
  const count = async (table: string) =>
    (await db.query(`select count(*)::int as n from "${views}".${table}`)).rows[0].n as number;
  const [events, links] = [await count("activity_event"), await count("activity_link")];
  // The index has just written its hundreds of thousands of rows: vacuumed and analysed now, as a database in
  // service is, rather than by autovacuum in the middle of a measurement (and planned meanwhile without statistics).
  await db.query("vacuum analyze");
  await db.end();

  const headers = { "x-api-key": person.key };
  const base = stack.platform.baseUrl;
  const bare = await startBare();
  let results: { feed: LoadResult; fresh: LoadResult; stats: LoadResult; plain: LoadResult };
  try {
    results = {
      feed: await load(`${base}${feedPath}`, headers),
      // Every request computed afresh: the page the host keeps per index version is bypassed
      // (docs/participants-and-activity.md).
      fresh: await load(`${base}${feedPath}`, { ...headers, "cache-control": "no-cache" }),
      stats: await load(`${base}${STATS}`, headers),
      plain: await load(bare.url),
    };
  } finally {
    await bare.close();
  }
  assertClean("feed", results.feed);
  assertClean("feed, no-cache", results.fresh);
  assertClean("stats", results.stats);
  assertClean("bare", results.plain);

  const verdict = (r: LoadResult) => (r.latency.p99 < TARGET_P99_MS ? "PASS" : "FAIL");
  console.log(`activity reads (issue #6; ${LOAD_CONDITIONS})`);
  console.log(
    `  index: ${fmt(events)} activity events, ${fmt(links)} links; generated ${fmt(generated.events)} mints in ` +
      `${fmt(generated.transactions)} batchMint transactions and ${fmt(generated.blocks)} blocks in ` +
      `${fmt(generated.seconds, 1)} s, indexed ${fmt(populated.indexSeconds, 1)} s after the last block`,
  );
  console.log(
    line(
      `GET ${feedPath.replace(person.userId, "{person}")} (own API key, ${feed.meta.total} events in the feed, ${feed.data.length} a page, ${JSON.stringify(feed).length} B body)`,
      results.feed,
    ),
  );
  console.log(
    line("  the same with Cache-Control: no-cache (computed for every request, not the kept page)", results.fresh),
  );
  console.log(line(`GET ${STATS} (${JSON.stringify(stats.data)})`, results.stats));
  console.log(line("GET /ping on a bare Hono app", results.plain));
  for (const [name, r] of [
    ["feed", results.feed],
    ["stats", results.stats],
  ] as const) {
    console.log(`  ${verdict(r)}: ${name} p99 ${r.latency.p99} ms < ${TARGET_P99_MS} ms`);
  }
}

export async function benchActivityReads(): Promise<void> {
  // The platform's own anvil keeps a state file and dumps it every 30 s, over a gigabyte with this many holders: a
  // chain without one (as the indexing bench uses), reached through RPC_URL, keeps those dumps out of the figures.
  const chainDir = mkdtempSync(join(tmpdir(), "activity-bench-chain-"));
  const chain = await startChain({ dataDir: chainDir, port: await freePort(), ephemeral: true });
  try {
    const stack = await bootStack({
      ...{ RPC_URL: chain.rpcUrl, CHAIN_ID: String(chain.chainId), DEPLOYER_PRIVATE_KEY: ANVIL_FUNDER_KEY },
      ...{ API_KEY_RATE_LIMIT: "100000000", HOST: "127.0.0.1" },
    });
    try {
      await measure(stack, await populate(stack));
    } finally {
      await stack.stop();
    }
  } finally {
    await chain.stop();
    removeDataDir(chainDir);
  }
}
