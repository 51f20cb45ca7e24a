// The API side of the mint benchmark, run as its own process (as real clients are): POSTs MINTS mints with
// CONCURRENCY in flight and prints when it started (epoch ms) and the transaction ids, as JSON. Input through the
// environment.
export {};

const { BASE_URL, API_KEY, TOKEN, MINTS = "200", CONCURRENCY = "32", RECIPIENT } = process.env;
const body = JSON.stringify({ recipients: [RECIPIENT], amounts: ["1"] });
const ids: string[] = [];
const startedAt = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: Number(CONCURRENCY) }, async () => {
    while (next++ < Number(MINTS)) {
      const res = await fetch(`${BASE_URL}/api/v2/tokens/${TOKEN}/mint`, {
        method: "POST",
        headers: { "x-api-key": API_KEY as string, "content-type": "application/json" },
        body,
      });
      if (res.status !== 202) throw new Error(`mint answered ${res.status}: ${await res.text()}`);
      ids.push(((await res.json()) as { transactionId: string }).transactionId);
    }
  }),
);
process.stdout.write(JSON.stringify({ startedAt, ids }));
