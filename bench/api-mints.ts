// Mints through the API from a client process of its own (as real clients are): 32 POSTs in flight, then waits until
// every request is COMPLETED. Resolves with the seconds from the first POST to the last completion.
import type pg from "pg";
import { runClientProcess } from "./client-process.ts";

export const MINT_RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

export async function timedApiMints(
  db: pg.Client,
  input: { baseUrl: string; apiKey: string; token: string; mints: number },
): Promise<number> {
  const { startedAt, ids }: { startedAt: number; ids: string[] } = JSON.parse(
    await runClientProcess("mint-client.ts", {
      BASE_URL: input.baseUrl,
      API_KEY: input.apiKey,
      TOKEN: input.token,
      MINTS: String(input.mints),
      CONCURRENCY: "32",
      RECIPIENT: MINT_RECIPIENT,
    }),
  );
  for (;;) {
    const { rows } = await db.query(
      "select count(*)::int as n from platform.transaction_requests where id = any($1) and status = 'COMPLETED'",
      [ids],
    );
    if (rows[0].n === input.mints) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return (Date.now() - startedAt) / 1000;
}
