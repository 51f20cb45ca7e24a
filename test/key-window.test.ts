// The per-key request window across host processes: two hosts on one database share one sliding window, so a key's
// allowance is the same whichever host (or both) its requests reach, and a second's requests leave the window
// API_KEY_RATE_WINDOW_SECONDS after it, not when a fixed window resets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateWindow } from "../host/auth/rate-limit.ts";
import { openDatabases } from "../host/db/database.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { type SecondHost, secondHost } from "./support/second-host.ts";
import { bootStack, json, platformDbUrl, type TestStack } from "./support/stack.ts";

const LIMIT = 20;
const WINDOW_SECONDS = 4;
const PATH = "/api/v2/auth/session";

describe("the per-key request window, cluster-wide and sliding", () => {
  let stack: TestStack;
  let second: SecondHost;
  let op: Operator;

  beforeAll(async () => {
    stack = await bootStack({
      API_KEY_RATE_LIMIT: String(LIMIT),
      API_KEY_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
    second = secondHost(stack);
    op = operator(stack);
  }, 240_000);

  afterAll(async () => {
    await second?.stop();
    await op?.close();
    await stack?.stop();
  });

  const newKey = () => op.keyFor(stack.platform.credentials.organizationId, "member");
  /** The statuses of `n` requests of `key`, alternating between the two hosts, one after the other. */
  async function alternate(key: string, n: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = i % 2 === 0 ? await stack.api(PATH, { key }) : await second.api(PATH, key);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    return statuses;
  }
  /** The statuses of `n` requests of `key` sent at once, alternately to the two hosts. */
  async function both(key: string, n: number): Promise<number[]> {
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => (i % 2 === 0 ? stack.api(PATH, { key }) : second.api(PATH, key))),
    );
    return Promise.all(
      answers.map(async (res) => {
        await res.arrayBuffer();
        return res.status;
      }),
    );
  }
  const until = (epochMs: number) => new Promise((r) => setTimeout(r, Math.max(0, epochMs - Date.now())));
  const allowed = (statuses: number[]) => statuses.filter((s) => s === 200).length;

  it("allows a key its allowance once across both hosts, then 429 with Retry-After within the window", async () => {
    const key = await newKey();
    const statuses = await alternate(key, LIMIT + 10);
    expect(allowed(statuses)).toBe(LIMIT);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
    const refused = await second.api(PATH, key);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(await json(refused)).toMatchObject({ code: "auth.apikey.THROTTLED", data: { id: "SVC-12136" } });
    // Another key has its own window.
    expect(allowed(await alternate(await newKey(), 4))).toBe(4);
  });

  it("concurrent requests on both hosts get exactly the allowance", async () => {
    const statuses = await both(await newKey(), LIMIT * 2);
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(LIMIT);
  });

  it("slides: half the allowance, then the other half two seconds later; only the first half frees up first", async () => {
    // Timed from what the requests did, not from a fixed schedule, so a slow machine shifts the steps and not the
    // outcome: a second's requests count until WINDOW_SECONDS seconds after it.
    const key = await newKey();
    const nowSecond = () => Math.floor(Date.now() / 1000);
    while (Date.now() % 1000 > 100) await new Promise((r) => setTimeout(r, 10)); // start at a second's beginning
    const startSecond = nowSecond();
    expect(allowed(await both(key, LIMIT / 2))).toBe(LIMIT / 2);
    const lastFirstSecond = nowSecond();
    await until((startSecond + 2) * 1000);
    const firstSecondHalf = nowSecond();
    expect(allowed(await both(key, LIMIT / 2 + 2))).toBe(LIMIT / 2);
    // Past the window of the first half, inside the second half's: a fixed window would have reset to the whole
    // allowance; the sliding one frees only the first half.
    const checkAt = (lastFirstSecond + WINDOW_SECONDS) * 1000 + 100;
    expect(checkAt, "the first half took so long its window overlaps the second's").toBeLessThan(
      (firstSecondHalf + WINDOW_SECONDS) * 1000 - 500,
    );
    await until(checkAt);
    expect(allowed(await both(key, LIMIT))).toBe(LIMIT / 2);
    expect(Date.now()).toBeLessThan((firstSecondHalf + WINDOW_SECONDS) * 1000);
  });

  it("leases a key far from its limit more at a time while its requests come in a burst", async () => {
    // The window itself on the stack's database, with a limit far above the burst; its round trips counted.
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 4);
    let roundTrips = 0;
    const counted = db.platform.withPlugin({
      transformQuery: (args) => {
        roundTrips += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    try {
      const window = createRateWindow(counted, 1_000_000, 60);
      const key = `burst-${Date.now()}`;
      const answers = await Promise.all(Array.from({ length: 1000 }, () => window.take(key)));
      expect(answers.every((answer) => answer.allowed)).toBe(true);
      // 64, 128, 256, 512, 512 (one or two more if the burst crosses a second): 16 leases of 64 before.
      expect(roundTrips).toBeLessThanOrEqual(8);
    } finally {
      await db.close();
    }
  });
});
