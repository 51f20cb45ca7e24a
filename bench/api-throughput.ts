// Requests per second and p50/p99 of an authenticated collection GET under autocannon, beside a bare Hono + kysely
// route serving the same page in one query (the collection/bare ratio) and a bare Hono /ping; then both again while
// the table is written all the time (the collection's kept pages then hardly ever answer).
import pg from "pg";
import { bootStack, json, platformDbUrl, type TestStack, waitForTerminal } from "../test/support/stack.ts";
import { startBarePageProcess } from "./bare-page-server.ts";
import { assertClean, LOAD_CONDITIONS, type LoadResult, line, load, startBare } from "./load.ts";

const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const MINTS = 50;
const PAGE = 50;
/** Rounds of the collection and the bare page, alternating (BENCH_API_ROUNDS). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_API_ROUNDS ?? 3));
/** Writes a second to the listed table in the written rounds. */
const WRITES_PER_SECOND = 50;
export const LIST = `/api/v2/transaction-requests?page[limit]=${PAGE}`;

/**
 * Writes the organisation's transaction requests WRITES_PER_SECOND times a second (a no-op update of one row: every
 * statement is a new version of the table) until stopped.
 */
async function startWriter(databaseUrl: string, organizationId: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let running = true;
  const writing = (async () => {
    while (running) {
      await client.query(
        `update platform.transaction_requests set updated_at = updated_at
          where id = (select id from platform.transaction_requests where organization_id = $1 limit 1)`,
        [organizationId],
      );
      await new Promise((resolve) => setTimeout(resolve, 1000 / WRITES_PER_SECOND));
    }
  })();
  return async () => {
    running = false;
    await writing;
    await client.end();
  };
}

/** A token and MINTS completed mints: the organisation's transaction requests fill the listed page. */
export async function seedTransactionRequests(stack: TestStack): Promise<void> {
  const createRes = await stack.api("/api/v2/tokens", {
    method: "POST",
    body: JSON.stringify({ templateId: "deposit", name: "Throughput", symbol: "THRU" }),
  });
  if (createRes.status !== 202) throw new Error(`token create: ${createRes.status} ${await createRes.text()}`);
  const created = await json(createRes);
  const token = (await waitForTerminal(stack, created.statusUrl)).result.tokenAddress as string;
  const statusUrls: string[] = [];
  for (let i = 0; i < MINTS; i++) {
    const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
      method: "POST",
      body: JSON.stringify({ recipients: [RECIPIENT], amounts: [String(1000 + i)] }),
    });
    if (res.status !== 202) throw new Error(`mint ${i}: ${res.status} ${await res.text()}`);
    statusUrls.push((await json(res)).statusUrl);
  }
  for (const url of statusUrls) await waitForTerminal(stack, url);
}

export async function benchApiThroughput(): Promise<void> {
  const stack = await bootStack({ API_KEY_RATE_LIMIT: "100000000", HOST: "127.0.0.1" });
  const bare = await startBare();
  const { organizationId, chainId } = stack.platform.credentials;
  const barePage = await startBarePageProcess(platformDbUrl(stack.env), organizationId, chainId, PAGE);
  try {
    await seedTransactionRequests(stack);

    const probe = await stack.api(LIST);
    const body = await json(probe);
    if (probe.status !== 200 || body.data?.length !== PAGE || !(body.meta?.total >= 50) || !body.meta?.facets)
      throw new Error(`${LIST} is not a 50-row page with total and facets: ${probe.status} ${JSON.stringify(body)}`);
    const bytes = JSON.stringify(body).length;

    // Alternating rounds, the best of each reported: a burst of other load on the machine (2 cores shared with
    // PostgreSQL, the chain and the indexer) then skews neither side.
    const rounds: { api: LoadResult; page: LoadResult }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const api = await load(`${stack.platform.baseUrl}${LIST}`, { "x-api-key": stack.platform.credentials.apiKey });
      rounds.push({ api, page: await load(barePage.url) });
    }
    const best = (side: "api" | "page") =>
      rounds.map((r) => r[side]).reduce((a, b) => (b.requests.average > a.requests.average ? b : a));
    const [authenticated, page] = [best("api"), best("page")];
    const plain = await load(bare.url);
    const stopWriter = await startWriter(platformDbUrl(stack.env), organizationId);
    const writtenApi = await load(`${stack.platform.baseUrl}${LIST}`, {
      "x-api-key": stack.platform.credentials.apiKey,
    });
    const writtenPage = await load(barePage.url);
    await stopWriter();
    for (const round of rounds) {
      assertClean("authenticated", round.api);
      assertClean("bare page", round.page);
    }
    assertClean("bare", plain);
    assertClean("authenticated, table written", writtenApi);
    assertClean("bare page, table written", writtenPage);

    console.log(`api throughput (${LOAD_CONDITIONS}; best of ${ROUNDS} alternating rounds)`);
    console.log(line(`GET ${LIST} (API key, ${body.meta.total} rows in total, ${bytes} B body)`, authenticated));
    console.log(line(`GET the same ${PAGE}-row page on a bare Hono + kysely route (one query, no auth)`, page));
    console.log(line("GET /ping on a bare Hono app", plain));
    const each = rounds.map((r) => (r.api.requests.average / r.page.requests.average).toFixed(2)).join(", ");
    console.log(
      `  collection/bare ratio: ${(authenticated.requests.average / page.requests.average).toFixed(2)} (p99 ${authenticated.latency.p99} ms vs ${page.latency.p99} ms; target >= 0.7, p99 < 50 ms; each round: ${each})`,
    );
    console.log(line(`the collection while its table is written ${WRITES_PER_SECOND} times a second`, writtenApi));
    console.log(line("the bare page meanwhile", writtenPage));
    console.log(
      `  written: collection/bare ratio ${(writtenApi.requests.average / writtenPage.requests.average).toFixed(2)} (p99 ${writtenApi.latency.p99} ms vs ${writtenPage.latency.p99} ms)`,
    );
    console.log(
      `  authenticated / bare req/s: ${(authenticated.requests.average / plain.requests.average).toFixed(3)} (${(plain.requests.average / authenticated.requests.average).toFixed(1)}x slower)`,
    );
  } finally {
    await barePage.close();
    await bare.close();
    await stack.stop();
  }
}
