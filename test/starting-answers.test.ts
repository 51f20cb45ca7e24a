// Answers while the platform starts and while its chain stalls, against the real stack: (a) the restart window —
// chain views not published, then published over an index behind the chain's head — answers 503 INDEXER_REINDEXING
// with Retry-After for a read of the index and for a mint of an existing token (never 500, never 404), then 200/202;
// (b) anvil stopped (SIGSTOP): /readyz says `chain: false` within 2 s and the pre-check answers 503
// SERVICE_UNAVAILABLE within its deadline; (c) a restart with a changed index build (INDEX_REBUILD_KEY, as a changed
// handler) answers every read from the previous build while the new one backfills, then the views switch to it and
// the previous build's schema is dropped. In the restart window a reader that opted in (`Prefer: handling=strict`)
// is answered 503 INDEXER_REINDEXING with Retry-After at once, while others wait for the catch-up.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainViews, dropChainViews } from "../host/db/chain-views.ts";
import { buildingIndexSchema, servedIndexSchema } from "../host/db/index-builds.ts";
import { ALICE } from "./support/api-flows.ts";
import { bootStack, createDepositToken, json, platformDbUrl, type TestStack } from "./support/stack.ts";

/** A child of the stack's supervisor, from its PID file under $DATA_DIR/run. */
const childPid = (stack: TestStack, name: string): number =>
  JSON.parse(readFileSync(join(stack.dataDir, "run", `${name}.pid`), "utf8")).pid;

/** Polls `probe` until it answers `status`; the milliseconds it took. */
async function until(probe: () => Promise<Response>, status: number, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const res = await probe();
    await res.body?.cancel();
    if (res.status === status) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`still ${res.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function timed(request: Promise<Response>) {
  const started = Date.now();
  const res = await request;
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON
  const body: any = await json(res);
  return { res, body, ms: Date.now() - started };
}

describe("answers while starting and while the chain stalls", () => {
  let stack: TestStack;
  let pool: pg.Pool;
  let token: string;
  const stopped: number[] = [];

  beforeAll(async () => {
    stack = await bootStack();
    pool = new pg.Pool({ connectionString: platformDbUrl(stack.env), max: 2 });
    pool.on("error", () => {}); // the database restarts with the platform in (c)
    token = await createDepositToken(stack, "Starting Euro", "SEUR");
  });
  afterAll(async () => {
    for (const pid of stopped) process.kill(pid, "SIGCONT");
    await pool?.end();
    await stack?.stop();
  });

  const readToken = () => stack.api(`/api/v2/tokens/${token}`);
  const mint = () =>
    stack.api(`/api/v2/tokens/${token}/mint`, {
      method: "POST",
      body: JSON.stringify({ recipients: [ALICE], amounts: ["1"] }),
    });

  /** The restart window's answer: 503 INDEXER_REINDEXING, Retry-After in the header and the envelope. */
  async function expectNotReady(request: Promise<Response>, label: string) {
    const { res, body, ms } = await timed(request);
    expect(res.status, JSON.stringify(body)).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(body).toMatchObject({
      code: "INDEXER_REINDEXING",
      data: { id: "SVC-0018", retryable: true, retryAfterSeconds: 1 },
    });
    console.log(`${label}: 503 INDEXER_REINDEXING in ${ms} ms`);
  }

  it("answers 503 with Retry-After until the chain views exist and the index is at the head, then 200/202", async () => {
    const viewsSchema = stack.platform.config.INDEX_VIEWS_SCHEMA;
    const chainId = stack.platform.parts.chains[0]!.chainId;
    expect((await readToken()).status).toBe(200);

    // The restart window's first part: the supervisor dropped the views until the indexer is ready.
    await dropChainViews(pool, viewsSchema);
    await expectNotReady(readToken(), "views missing: GET token");
    await expectNotReady(mint(), "views missing: mint of an existing token");
    // What does not read the index keeps answering.
    expect((await stack.api("/healthz")).status).toBe(200);
    expect((await stack.api("/api/v2/transaction-requests?page[limit]=1")).status).toBe(200);

    // Its second part: views published, the index not yet at the chain's head (the indexer stopped, a block mined).
    const ponder = childPid(stack, "ponder");
    process.kill(ponder, "SIGSTOP");
    stopped.push(ponder);
    await stack.rpc("evm_mine");
    await createChainViews(pool, viewsSchema, [chainId]);
    // A reader that opted in is answered 503 at once; a plain read waits for the catch-up (then 503).
    await new Promise((r) => setTimeout(r, 150)); // the gate's next check is due
    const strict = await timed(stack.api(`/api/v2/tokens/${token}`, { headers: { prefer: "handling=strict" } }));
    expect(strict.res.status, JSON.stringify(strict.body)).toBe(503);
    expect(strict.body).toMatchObject({ code: "INDEXER_REINDEXING", data: { retryAfterSeconds: 1 } });
    expect(strict.res.headers.get("retry-after")).toBe("1");
    expect(strict.res.headers.get("preference-applied")).toBe("handling=strict");
    expect(strict.ms).toBeLessThan(1_500);
    console.log(`views back, index behind the head: opted-in GET token 503 in ${strict.ms} ms`);
    const waitingSince = Date.now();
    await expectNotReady(readToken(), "views back, index behind the head: GET token");
    expect(Date.now() - waitingSince).toBeGreaterThan(3_000);
    await expectNotReady(mint(), "views back, index behind the head: mint");

    process.kill(ponder, "SIGCONT");
    stopped.splice(stopped.indexOf(ponder), 1);
    const caughtUp = await until(readToken, 200);
    const { res, body } = await timed(mint());
    expect(res.status, JSON.stringify(body)).toBe(202);
    console.log(`index resumed: GET token 200 after ${caughtUp} ms, then mint 202`);
  });

  it("reports chain: false within 2 s and answers the pre-check 503 within its deadline while anvil is stopped", async () => {
    const anvil = childPid(stack, "anvil");
    process.kill(anvil, "SIGSTOP");
    stopped.push(anvil);
    try {
      const ready = await timed(stack.api("/readyz"));
      expect(ready.res.status).toBe(503);
      expect(ready.body.checks).toMatchObject({ chain: false, database: true });
      expect(ready.ms).toBeLessThan(2_000);
      console.log(`anvil stopped: /readyz 503 chain=false in ${ready.ms} ms`);

      const deadlineMs = stack.platform.config.CHAIN_REQUEST_TIMEOUT_SECONDS * 1000;
      const precheck = await timed(stack.api(`/api/v2/tokens/${token}/pre-check?action=mint&to=${ALICE}&amount=1`));
      expect(precheck.res.status, JSON.stringify(precheck.body)).toBe(503);
      expect(precheck.body).toMatchObject({ code: "SERVICE_UNAVAILABLE", data: { id: "SVC-0083", retryable: true } });
      expect(precheck.ms).toBeLessThan(deadlineMs + 1_500);
      console.log(`anvil stopped: pre-check 503 SERVICE_UNAVAILABLE in ${precheck.ms} ms (deadline ${deadlineMs} ms)`);
    } finally {
      process.kill(anvil, "SIGCONT");
      stopped.splice(stopped.indexOf(anvil), 1);
    }
    const recovered = await until(() => stack.api("/readyz"), 200);
    console.log(`anvil resumed: /readyz 200 after ${recovered} ms`);
  });

  it("answers reads from the previous index build while a changed one backfills, then switches to it", async () => {
    const viewsSchema = stack.platform.config.INDEX_VIEWS_SCHEMA;
    const previous = await servedIndexSchema(pool, viewsSchema);
    expect(previous).toMatch(/^idx_/);
    const answers: number[] = [];
    let down = 0; // while the platform is stopped nothing listens
    let building: string | null = null;
    let duringBackfill = 0;
    let reading = true;
    const started = Date.now();
    const reads = (async () => {
      while (reading) {
        // Every other read opted in (Prefer: handling=strict): it is answered by the previous build as well.
        const strict = answers.length % 2 === 1;
        const headers = strict ? { prefer: "handling=strict" } : undefined;
        const res = await stack.api(`/api/v2/tokens/${token}`, { headers }).catch(() => undefined);
        if (!res) down += 1;
        else {
          answers.push(res.status);
          if (res.status !== 200) console.log(`read answered ${res.status}: ${await res.text()}`);
          else await res.body?.cancel();
          if (building) duringBackfill += 1;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    stack.env.INDEX_REBUILD_KEY = "starting-answers";
    await stack.restart(); // ready while the previous build serves: the new one backfills meanwhile
    const restarted = Date.now() - started;
    building = await buildingIndexSchema(pool, viewsSchema);
    expect(building).toMatch(/^idx_/);
    expect(building).not.toBe(previous);
    const ready = await json(await stack.api("/readyz"));
    expect(ready).toMatchObject({ status: "ready", reindexing: { serving: previous, building } });
    const switched = await until(async () => {
      const served = await servedIndexSchema(pool, viewsSchema);
      return new Response(null, { status: served === building ? 200 : 409 });
    }, 200);
    await new Promise((r) => setTimeout(r, 300)); // reads just after the switch too
    reading = false;
    await reads;
    console.log(
      `changed build: restarted in ${restarted} ms, switched ${switched} ms later; ` +
        `${answers.length} reads (${duringBackfill} during the backfill), ${down} while stopped`,
    );
    expect(answers.filter((status) => status !== 200)).toEqual([]);
    expect(duringBackfill).toBeGreaterThan(0);
    expect(await buildingIndexSchema(pool, viewsSchema)).toBeNull();
    // The previous build is dropped after the switch, on a connection of its own (scripts/infra/chain-views.ts).
    const schemas = async () =>
      (await pool.query("select nspname from pg_namespace where nspname in ($1, $2)", [previous, building])).rows.map(
        (row) => row.nspname,
      );
    await expect.poll(schemas, { timeout: 15_000, interval: 100 }).toEqual([building]);
    expect((await json(await stack.api("/readyz"))).reindexing).toBeNull();
  });
});
