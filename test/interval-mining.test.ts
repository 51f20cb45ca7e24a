// The chain `npm start` runs: a block a second, so a burst of writes fills blocks as on a real chain. The signer's
// writes of a batch go to such a node in one request (host/worker/send-transaction.ts); switched to a block per
// transaction, the same signer's writes go one at a time again (anvil stalls on a batch taken out of nonce order).
import pg from "pg";
import { createPublicClient, erc20Abi, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bootStack,
  createDepositToken,
  platformDbUrl,
  stackChain,
  type TestStack,
  waitForTerminal,
} from "./support/stack.ts";

const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("writes on a chain that mines by interval", () => {
  let stack: TestStack;
  let db: pg.Client;
  let token: `0x${string}`;

  beforeAll(async () => {
    stack = await bootStack({ ANVIL_MINING: "interval", ANVIL_BLOCK_TIME_SECONDS: "0.5" });
    db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
    token = await createDepositToken(stack, "Interval", "INT");
  }, 240_000);
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  /** `count` mints posted at once; every one COMPLETED; their rows. */
  async function burst(count: number, first: number) {
    const amounts = Array.from({ length: count }, (_, i) => BigInt(first + i));
    const ids = await Promise.all(
      amounts.map(async (amount) => {
        const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
          method: "POST",
          body: JSON.stringify({ recipients: [RECIPIENT], amounts: [String(amount)] }),
        });
        const body = (await res.json()) as { statusUrl: string; transactionId: string };
        expect(res.status, JSON.stringify(body)).toBe(202);
        expect((await waitForTerminal(stack, body.statusUrl)).status).toBe("COMPLETED");
        return body.transactionId;
      }),
    );
    const { rows } = await db.query<{ nonce: number; block_number: string }>(
      "select nonce, block_number from platform.transaction_requests where id = any($1) order by nonce",
      [ids],
    );
    return { rows, total: amounts.reduce((a, b) => a + b, 0n) };
  }

  const supply = () =>
    createPublicClient({ chain: stackChain(stack), transport: http() }).readContract({
      address: token,
      abi: erc20Abi,
      functionName: "totalSupply",
    });

  it("sends a burst of one signer's writes together: each mined once, nonces without gaps, several a block", async () => {
    const before = await supply();
    const { rows, total } = await burst(60, 1);
    const nonces = rows.map((row) => row.nonce);
    expect(nonces).toEqual(Array.from({ length: 60 }, (_, i) => nonces[0] + i));
    expect(new Set(rows.map((row) => row.block_number)).size).toBeLessThan(30);
    expect((await supply()) - before).toBe(total);
  }, 120_000);

  it("goes back to one write at a time when the node is switched to a block per transaction", async () => {
    await stack.rpc("evm_setAutomine", [true]);
    try {
      const before = await supply();
      const { rows, total } = await burst(20, 100);
      expect(new Set(rows.map((row) => row.nonce)).size).toBe(20);
      expect((await supply()) - before).toBe(total);
    } finally {
      await stack.rpc("evm_setAutomine", [false]);
    }
  }, 120_000);
});
