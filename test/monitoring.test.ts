// Monitoring end to end: the figures equal what this test sent, a cursor walk sees every log once, secrets never reach
// the stored rows, the SSE stream receives a request served by a second host process (LISTEN/NOTIFY), another
// organisation sees none of it, range and limit errors, and GET /metrics parsed strictly.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Operator, operator } from "./support/organizations.ts";
import { parsePrometheusText, sampleValue } from "./support/prometheus-text.ts";
import { type SecondHost, secondHost } from "./support/second-host.ts";
import { bootStack, json, platformDbUrl, type TestStack } from "./support/stack.ts";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const SECRETS = {
  pin: "914253",
  password: "hunter2-Secret-XYZ",
  bearer: "sekret-bearer-ABC123",
  cookie: "cookie-secret-DEF456",
  query: "query-secret-GHI789",
  // Secret-shaped values under names that say nothing: redacted by their shape.
  webhookSecret: "whsec_c2VjcmV0LXdlYmhvb2stc2VjcmV0LTEyMzQ1Ng==",
  privateKey: `0x${"5ec7e7".repeat(10)}abcd`,
  apiKeyInNote: `svc_${"N0te".repeat(10)}abc`,
};
const M = "/api/v2/monitoring/api";

interface Sent {
  method: string;
  status: number;
  traceId: string;
}

/** An SSE reader: every `request-log` event's data, parsed. */
function openStream(url: string, key: string) {
  const controller = new AbortController();
  const events: { traceId: string; id: string }[] = [];
  let listening = false;
  const done = (async () => {
    const res = await fetch(url, { headers: { "x-api-key": key }, signal: controller.signal });
    if (res.status !== 200) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += value;
      let end = text.indexOf("\n\n");
      while (end >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        if (block.startsWith(": listening")) listening = true;
        const data = block.split("\n").find((l) => l.startsWith("data: "));
        if (block.includes("event: request-log") && data) events.push(JSON.parse(data.slice(6)));
        end = text.indexOf("\n\n");
      }
    }
  })().catch((error) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    events,
    async until(predicate: () => boolean, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error("stream: timed out");
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    listening: () => listening,
    async close() {
      controller.abort();
      await done;
    },
  };
}

describe("monitoring", () => {
  let stack: TestStack;
  let op: Operator;
  let db: pg.Client;
  let owner: string;
  let member: string;
  let otherOwner: string;
  const sent: Sent[] = [];
  let from: string;
  let to: string;

  /** A request of the organisation's owner, remembered for the expected figures. */
  async function send(path: string, init: RequestInit = {}) {
    const res = await stack.api(path, init);
    await res.arrayBuffer();
    sent.push({ method: init.method ?? "GET", status: res.status, traceId: res.headers.get("x-request-id")! });
    return res;
  }
  const get = (path: string, key = owner) => stack.api(path, { key });
  const window = () => `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

  beforeAll(async () => {
    stack = await bootStack({ METRICS_TOKEN });
    op = operator(stack);
    db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
    owner = stack.platform.credentials.apiKey;
    const organizationId = stack.platform.credentials.organizationId;
    member = await op.keyFor(organizationId, "member");
    otherOwner = await op.keyFor(await op.organization("Monitoring Other"), "owner");

    from = new Date().toISOString();
    for (let i = 0; i < 5; i++) await send("/api/v2/transaction-requests?page[limit]=1");
    for (let i = 0; i < 3; i++) await send("/api/v2/transaction-requests/no-such-request");
    // Secrets in the body, the headers and the query: none may be stored.
    for (let i = 0; i < 2; i++) {
      await send(`/api/v2/tokens?password=${SECRETS.query}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${SECRETS.bearer}`,
          "idempotency-key": `monitoring-${i}`,
          "x-note": `signed with ${SECRETS.webhookSecret}`,
        },
        body: JSON.stringify({
          templateId: "no-such-template",
          name: "Secretive",
          symbol: "SEC",
          note: `rotate ${SECRETS.webhookSecret}`,
          description: `keys ${SECRETS.privateKey} and ${SECRETS.apiKeyInNote}`,
          password: SECRETS.password,
          walletVerification: { verificationType: "PINCODE", secretVerificationCode: SECRETS.pin },
        }),
      });
    }
    // The member lacks monitoring:read (403), still a request of the organisation.
    const denied = await stack.api(`${M}/request-metrics/summary`, { key: member });
    await denied.arrayBuffer();
    sent.push({ method: "GET", status: denied.status, traceId: denied.headers.get("x-request-id")! });
    // Unauthenticated (a cookie, no key): recorded without an organisation, invisible to the routes.
    const anonymous = await stack.api("/api/v2/transaction-requests", {
      key: null,
      headers: { cookie: `session=${SECRETS.cookie}` },
    });
    expect(anonymous.status).toBe(401);
    await new Promise((r) => setTimeout(r, 5));
    to = new Date().toISOString();

    // The flush is once a second: wait until every request is stored.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const body = await json(await get(`${M}/request-logs?${window()}&limit=1`));
      if (body.totalCount === sent.length) break;
      if (Date.now() > deadline) throw new Error(`logs: ${JSON.stringify(body)} of ${sent.length}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 240_000);

  afterAll(async () => {
    await db?.end();
    await op?.close();
    await stack?.stop();
  });

  const count = (p: (s: Sent) => boolean) => sent.filter(p).length;

  it("the summary, timeline, endpoint metrics and top errors equal what the test sent", async () => {
    expect(count((s) => s.status === 403)).toBe(1);
    const e4 = count((s) => s.status >= 400 && s.status < 500);
    const e5 = count((s) => s.status >= 500);
    const summary = await json(await get(`${M}/request-metrics/summary?${window()}`));
    expect(summary).toMatchObject({
      totalRequests: sent.length,
      error4xxCount: e4,
      error5xxCount: e5,
      errorRate: (e4 + e5) / sent.length,
      clientErrorRate: e4 / sent.length,
    });
    expect(summary.avgDurationMs).toBeGreaterThan(0);
    expect(summary.p95DurationMs).toBeGreaterThanOrEqual(0);
    expect((await json(await get(`${M}/request-metrics/summary?${window()}&requestType=rpc`))).totalRequests).toBe(0);

    const { items: buckets } = await json(await get(`${M}/request-metrics/timeline?${window()}&granularity=hour`));
    const sum = (key: string) => buckets.reduce((n: number, b: Record<string, number>) => n + b[key]!, 0);
    expect(sum("restSuccessCount")).toBe(count((s) => s.status < 400));
    expect(sum("rpcSuccessCount")).toBe(0);
    expect(sum("error4xxCount")).toBe(e4);

    const endpoints = await json(await get(`${M}/endpoint-metrics?${window()}&limit=100`));
    expect(endpoints.totalCount).toBe(endpoints.items.length);
    expect(endpoints.items.reduce((n: number, i: { requestCount: number }) => n + i.requestCount, 0)).toBe(sent.length);
    const list = endpoints.items.find(
      (i: { routeTemplate: string }) => i.routeTemplate === "/api/v2/transaction-requests",
    );
    expect(list).toMatchObject({
      method: "GET",
      requestType: "rest",
      tag: "transaction-requests",
      requestCount: 5,
      errorRate: 0,
    });
    const one = endpoints.items.find(
      (i: { routeTemplate: string }) => i.routeTemplate === "/api/v2/transaction-requests/{transactionId}",
    );
    expect(one).toMatchObject({ requestCount: 3, errorRate: 1 });
    const byEndpoint = await json(await get(`${M}/endpoint-metrics?${window()}&endpoint=/api/v2/tokens&method=post`));
    expect(byEndpoint.items).toHaveLength(1);
    expect(byEndpoint.items[0].requestCount).toBe(2);

    const timelineOfOne = await json(
      await get(`${M}/request-metrics/timeline?${window()}&granularity=day&endpointId=${one.endpointId}`),
    );
    expect(timelineOfOne.items.reduce((n: number, b: { error4xxCount: number }) => n + b.error4xxCount, 0)).toBe(3);

    const top = await json(await get(`${M}/request-metrics/top-errors?${window()}&limit=20`));
    expect(top.items.reduce((n: number, i: { errorCount: number }) => n + i.errorCount, 0)).toBe(e4 + e5);
    expect(
      top.items.find((i: { route: string }) => i.route === "/api/v2/transaction-requests/{transactionId}"),
    ).toMatchObject({
      method: "GET",
      totalCount: 3,
      errorCount: 3,
      errorRate: 1,
      dominantStatusCode: 404,
    });
  });

  it("request logs: facets by method, status class and request type; a cursor walk sees every row once", async () => {
    const first = await json(await get(`${M}/request-logs?${window()}&limit=3`));
    expect(first.totalCount).toBe(sent.length);
    const facet = (name: string) =>
      Object.fromEntries(first.facets[name].map((b: { value: string; count: number }) => [b.value, b.count]));
    expect(facet("method")).toEqual({ GET: count((s) => s.method === "GET"), POST: count((s) => s.method === "POST") });
    const classes: Record<string, number> = {};
    for (const s of sent)
      classes[`${Math.floor(s.status / 100)}xx`] = (classes[`${Math.floor(s.status / 100)}xx`] ?? 0) + 1;
    expect(facet("statusClass")).toEqual(classes);
    expect(facet("requestType")).toEqual({ rest: sent.length });

    const seen: string[] = [];
    const traces: string[] = [];
    let page = first;
    let last = Number.POSITIVE_INFINITY;
    for (;;) {
      expect(page.items.length).toBeLessThanOrEqual(3);
      for (const item of page.items) {
        seen.push(item.id);
        traces.push(item.traceId);
        expect(Date.parse(item.requestedAt)).toBeLessThanOrEqual(last);
        last = Date.parse(item.requestedAt);
      }
      if (page.nextCursor === null) break;
      page = await json(await get(`${M}/request-logs?${window()}&limit=3&cursor=${page.nextCursor}`));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(sent.length);
    expect(new Set(traces)).toEqual(new Set(sent.map((s) => s.traceId)));

    const errors = await json(await get(`${M}/request-logs?${window()}&statusClass=4xx&limit=100`));
    expect(errors.totalCount).toBe(count((s) => s.status >= 400 && s.status < 500));
    const posts = await json(await get(`${M}/request-logs?${window()}&method=POST&endpoint=/api/v2/tokens`));
    expect(posts.items).toHaveLength(2);
    expect(posts.items.map((i: { idempotencyKey: string }) => i.idempotencyKey).sort()).toEqual([
      "monitoring-0",
      "monitoring-1",
    ]);
  });

  it("a log's detail is redacted, and no stored row holds a secret that was sent", async () => {
    const posts = await json(await get(`${M}/request-logs?${window()}&method=POST`));
    const detail = await json(await get(`${M}/request-logs/${posts.items[0].id}`));
    expect(detail.statusCode).toBe(sent.find((s) => s.method === "POST")!.status);
    expect(detail.requestHeaders["x-api-key"]).toBe("REDACTED");
    expect(detail.requestHeaders.authorization).toBe("REDACTED");
    expect(detail.requestUrl).toBe("/api/v2/tokens?password=REDACTED");
    expect(JSON.parse(detail.requestBody)).toMatchObject({
      name: "Secretive",
      password: "REDACTED",
      walletVerification: "REDACTED",
      note: "rotate REDACTED",
      description: "keys REDACTED and REDACTED",
    });
    expect(detail.requestHeaders["x-note"]).toBe("signed with REDACTED");
    expect(detail.failureMessage).toMatch(/^[A-Z_]+: /);
    expect(detail.errorDetails).toMatchObject({ requestId: detail.traceId });
    expect(detail.requestSize).toBeGreaterThan(0);
    expect(detail.responseSize).toBeGreaterThan(0);
    expect(detail.caller).toMatchObject({ kind: "api-key" });

    const { rows } = await db.query("select * from platform.monitoring_request_logs");
    const stored = JSON.stringify(rows);
    for (const secret of [...Object.values(SECRETS), owner, member]) expect(stored).not.toContain(secret);
    const anonymous = rows.filter((r) => r.organization_id === null);
    expect(anonymous.length).toBeGreaterThanOrEqual(1);
    expect(anonymous.some((r) => r.request_headers.cookie === "REDACTED")).toBe(true);
  });

  it("keeps the record of a request refused for a NUL in its path, not a lost batch (no procedure: unmatched)", async () => {
    const refused = await fetch(`${stack.platform.baseUrl}/api/rpc/%00`, { method: "POST" });
    expect(refused.status).toBe(400);
    const requestId = refused.headers.get("x-request-id");
    const deadline = Date.now() + 15_000;
    let rows: { route_template: string }[] = [];
    while (rows.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      ({ rows } = await db.query("select route_template from platform.monitoring_request_logs where trace_id = $1", [
        requestId,
      ]));
    }
    // A path naming no procedure is no route template (a bounded /metrics label): stored as null, the record kept.
    expect(rows).toEqual([{ route_template: null }]);
  });

  it("another organisation sees none of it", async () => {
    const summary = await json(await get(`${M}/request-metrics/summary?${window()}`, otherOwner));
    expect(summary.totalRequests).toBe(0);
    const logs = await json(await get(`${M}/request-logs?${window()}`, otherOwner));
    expect(logs).toMatchObject({ items: [], totalCount: 0, nextCursor: null });
    const [mine] = (await json(await get(`${M}/request-logs?${window()}&limit=1`))).items;
    const hidden = await get(`${M}/request-logs/${mine.id}`, otherOwner);
    expect(hidden.status).toBe(404);
    expect((await json(hidden)).code).toBe("MONITORING_REQUEST_LOG_NOT_FOUND");
  });

  it("range and limit errors answer 400 in the envelope; the member is refused", async () => {
    const at = (days: number) => new Date(Date.parse(to) - days * 86_400_000).toISOString();
    const range = (path: string, days: number, extra = "") => get(`${M}${path}?from=${at(days)}&to=${to}${extra}`);
    const cases: [Promise<Response>, number][] = [
      [range("/request-metrics/summary", 7), 200],
      [range("/request-metrics/summary", 7.01), 400],
      [range("/endpoint-metrics", 8), 400],
      [range("/request-logs", 8), 400],
      [range("/request-metrics/timeline", 31, "&granularity=day"), 200],
      [range("/request-metrics/timeline", 32), 400],
      [range("/request-metrics/top-errors", 30), 200],
      [range("/request-metrics/top-errors", 31), 400],
      [range("/request-metrics/summary", 0), 400],
      [range("/request-metrics/summary", -1), 400],
      [range("/request-logs", 1, "&limit=0"), 400],
      [range("/request-logs", 1, "&limit=101"), 400],
      [range("/request-logs", 1, "&limit=100"), 200],
      [range("/endpoint-metrics", 1, "&limit=101"), 400],
      [range("/request-metrics/top-errors", 1, "&limit=21"), 400],
      [range("/request-logs", 1, "&cursor=not-a-cursor"), 400],
      [range("/request-logs", 1, "&statusClass=3xx"), 400],
      [get(`${M}/request-metrics/summary?from=yesterday`), 400],
      [get(`${M}/request-logs`, member), 403],
    ];
    for (const [response, status] of cases) {
      const res = await response;
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (status === 400) expect(body).toMatchObject({ code: "BAD_REQUEST", status: 400 });
    }
  });

  it("the SSE stream delivers a request served by another host process, to its organisation only", async () => {
    const base = stack.platform.baseUrl;
    const mine = openStream(`${base}${M}/request-logs/stream`, owner);
    const theirs = openStream(`${base}${M}/request-logs/stream`, otherOwner);
    let second: SecondHost | undefined;
    try {
      await mine.until(mine.listening);
      await theirs.until(theirs.listening);
      second = secondHost(stack);
      const res = await second.api("/api/v2/transaction-requests?page[limit]=2", owner);
      expect(res.status).toBe(200);
      const traceId = res.headers.get("x-request-id");
      await mine.until(() => mine.events.some((e) => e.traceId === traceId));
      const event = mine.events.find((e) => e.traceId === traceId)!;
      expect(event).toMatchObject({ method: "GET", routeTemplate: "/api/v2/transaction-requests", statusCode: 200 });
      expect(event).not.toHaveProperty("organizationId");
      // The other organisation's stream hears its own requests only.
      const own = await second.api(`${M}/request-metrics/summary`, otherOwner);
      const ownTrace = own.headers.get("x-request-id");
      await theirs.until(() => theirs.events.some((e) => e.traceId === ownTrace));
      expect(theirs.events.some((e) => e.traceId === traceId)).toBe(false);
      expect(mine.events.some((e) => e.traceId === ownTrace)).toBe(false);
    } finally {
      await mine.close();
      await theirs.close();
      await second?.stop();
    }
  });

  it("GET /metrics: bearer-protected, Prometheus text with requests, latency, queue, chain and index heads", async () => {
    const refused = await fetch(`${stack.platform.baseUrl}/metrics`);
    expect(refused.status).toBe(401);
    const wrong = await fetch(`${stack.platform.baseUrl}/metrics`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    const res = await fetch(`${stack.platform.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusText(await res.text());
    for (const name of [
      "api_requests_total",
      "api_request_duration_seconds",
      "worker_queue_depth",
      "worker_jobs_failed",
      "chain_head_block",
      "index_head_block",
      "webhook_deliveries",
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(families.get("api_requests_total")!.type).toBe("counter");
    expect(families.get("api_request_duration_seconds")!.type).toBe("histogram");
    const labels = { method: "GET", route: "/api/v2/transaction-requests", status_class: "2xx", request_type: "rest" };
    const listed = sampleValue(families, "api_requests_total", labels)!;
    expect(listed).toBeGreaterThanOrEqual(5);
    expect(sampleValue(families, "api_request_duration_seconds_count", labels)).toBe(listed);
    const notFound = { ...labels, route: "/api/v2/transaction-requests/{transactionId}", status_class: "4xx" };
    expect(sampleValue(families, "api_requests_total", notFound)).toBe(3);
    const chainId = String(stack.platform.credentials.chainId);
    const head = sampleValue(families, "chain_head_block", { chain_id: chainId })!;
    const indexed = sampleValue(families, "index_head_block", { chain_id: chainId })!;
    expect(head).toBeGreaterThan(0);
    expect(indexed).toBeLessThanOrEqual(head);
  });
});
