// Several hosts and workers on one database behave as one: `npm start`'s platform with HOST_PROCESSES=2 and
// WORKER_PROCESSES=2 (the supervisor's host plus a host process of its own, two graphile-worker processes). 200
// mints, each sent to both hosts at once under one Idempotency-Key, complete exactly once (one request, one
// transaction, the supply of exactly the 200 amounts); a key's window is enforced across both hosts.
import pg from "pg";
import { createPublicClient, erc20Abi, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Operator, operator } from "./support/organizations.ts";
import { bootStack, createDepositToken, json, platformDbUrl, stackChain, type TestStack } from "./support/stack.ts";

const MINTS = 200;
const KEYS = 4;
const LIMIT = 300;
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("two hosts and two workers on one database", () => {
  let stack: TestStack;
  let op: Operator;
  let db: pg.Client;

  beforeAll(async () => {
    stack = await bootStack({
      HOST_PROCESSES: "2",
      WORKER_PROCESSES: "2",
      PORT: "0", // the second host takes a free port too
      API_KEY_RATE_LIMIT: String(LIMIT),
      API_KEY_RATE_WINDOW_SECONDS: "60",
    });
    op = operator(stack);
    db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
  }, 240_000);

  afterAll(async () => {
    await db?.end();
    await op?.close();
    await stack?.stop();
  });

  const at = (host: number, path: string, key: string, init: RequestInit = {}) =>
    fetch(`${stack.platform.hostUrls[host]}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), "x-api-key": key, "content-type": "application/json" },
    });

  /** As a client does: a 503 (the machine overloaded) is sent again, same Idempotency-Key, after its Retry-After. */
  const mintRetrying = async (host: number, path: string, key: string, init: RequestInit) => {
    for (let attempt = 1; ; attempt++) {
      const res = await at(host, path, key, init);
      const answer = { status: res.status, body: await json(res) };
      if (res.status !== 503 || attempt === 5) return answer;
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1)));
    }
  };

  it("runs two host processes and two worker processes", async () => {
    expect(stack.platform.hostUrls).toHaveLength(2);
    expect(new Set(stack.platform.hostUrls).size).toBe(2);
    for (const url of stack.platform.hostUrls) expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const { rows } = await db.query("select count(distinct service_url)::int as n from platform.worker_deployments");
    expect(rows[0].n).toBeGreaterThanOrEqual(2);
  });

  it("completes 200 idempotent mints sent to both hosts at once exactly once", async () => {
    const token = await createDepositToken(stack, "Cluster", "CLU");
    const organizationId = stack.platform.credentials.organizationId;
    const keys = await Promise.all(Array.from({ length: KEYS }, () => op.keyFor(organizationId, "owner")));
    const amounts = Array.from({ length: MINTS }, (_, i) => 1000n + BigInt(i));
    const answers = await Promise.all(
      amounts.map(async (amount, i) => {
        const init = {
          method: "POST",
          headers: { "idempotency-key": `cluster-mint-${i}` },
          body: JSON.stringify({ recipients: [RECIPIENT], amounts: [String(amount)] }),
        };
        const key = keys[i % KEYS]!;
        return Promise.all([0, 1].map((host) => mintRetrying(host, `/api/v2/tokens/${token}/mint`, key, init)));
      }),
    );
    // One of each pair is accepted (202); the other attaches to it: the same 202, or 200 with the request's status.
    const transactionOf = (answer: { body: { transactionId?: string; data?: { transactionId?: string } } }) =>
      answer.body.transactionId ?? answer.body.data?.transactionId;
    for (const [first, second] of answers) {
      expect([first!.status, second!.status]).toContain(202);
      expect([200, 202]).toContain(first!.status);
      expect([200, 202]).toContain(second!.status);
      expect(transactionOf(second!)).toBe(transactionOf(first!));
      expect(transactionOf(first!)).toEqual(expect.any(String));
    }

    const deadline = Date.now() + 180_000;
    for (;;) {
      const { rows } = await db.query(
        `select count(*)::int as requests, count(*) filter (where status = 'COMPLETED')::int as completed,
           count(distinct transaction_hash)::int as transactions
         from platform.transaction_requests where idempotency_key like 'cluster-mint-%'`,
      );
      expect(rows[0].requests).toBe(MINTS);
      if (rows[0].completed === MINTS) {
        expect(rows[0].transactions).toBe(MINTS);
        break;
      }
      if (Date.now() > deadline) throw new Error(`${rows[0].completed} of ${MINTS} mints completed`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const client = createPublicClient({ chain: stackChain(stack), transport: http() });
    const supply = await client.readContract({ address: token, abi: erc20Abi, functionName: "totalSupply" });
    expect(supply).toBe(amounts.reduce((a, b) => a + b, 0n));
  }, 300_000);

  it("enforces a key's window across both hosts", async () => {
    const key = await op.keyFor(stack.platform.credentials.organizationId, "member");
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 20; i++) {
      const res = await at(i % 2, "/api/v2/auth/session", key);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
  }, 120_000);
});
