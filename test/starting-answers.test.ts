// Answers while the platform starts and while its chain stalls, against the real stack: (a) the restart window —
// chain views not published, then published over an index behind the chain's head — answers 503 INDEXER_REINDEXING
// with Retry-After for a read of the index and for a mint of an existing token (never 500, never 404), then 200/202;
// (b) anvil stopped (SIGSTOP): /readyz says `chain: false` within 2 s and the pre-check answers 503
// SERVICE_UNAVAILABLE within its deadline.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainViews, dropChainViews } from "../host/db/chain-views.ts";
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
    await expectNotReady(readToken(), "views back, index behind the head: GET token");
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
});
