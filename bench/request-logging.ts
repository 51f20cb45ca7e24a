// The collection bench with request logging on versus off, in one run: two extra host processes' apps on the same
// stack, alike but for REQUEST_LOG_ENABLED, loaded in turn (off, on, off, on) with the same autocannon settings.
// Target (issue #18): logging on keeps at least 0.9 of the throughput without it.
import { bootStack, json } from "../test/support/stack.ts";
import { LIST, seedTransactionRequests } from "./api-throughput.ts";
import { startExtraHost } from "./extra-host.ts";
import { assertClean, CONNECTIONS, DURATION_SECONDS, type LoadResult, line, load, WARMUP_SECONDS } from "./load.ts";

const ROUNDS = 3;

export async function benchRequestLogging(): Promise<void> {
  const env = { API_KEY_RATE_LIMIT: "100000000", HOST: "127.0.0.1" };
  const stack = await bootStack(env);
  const hosts = {
    off: await startExtraHost(stack, { ...env, REQUEST_LOG_ENABLED: "false" }),
    on: await startExtraHost(stack, { ...env, REQUEST_LOG_ENABLED: "true" }),
  };
  try {
    await seedTransactionRequests(stack);
    const key = stack.platform.credentials.apiKey;
    const runs: Record<"on" | "off", LoadResult[]> = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ["off", "on"] as const) {
        const result = await load(`${hosts[mode].baseUrl}${LIST}`, { "x-api-key": key });
        assertClean(`logging ${mode}`, result);
        runs[mode].push(result);
      }
    }
    // What the logging host (and the stack's own, seeding) wrote, after the last flush.
    await new Promise((r) => setTimeout(r, 2000));
    const summary = await stack.api(`/api/v2/monitoring/api/request-metrics/summary`);
    const recorded = (await json(summary)).totalRequests as number;

    const mean = (rs: LoadResult[]) => rs.reduce((n, r) => n + r.requests.average, 0) / rs.length;
    console.log(
      `request logging (GET ${LIST}, autocannon, ${CONNECTIONS} connections, ${ROUNDS}×${DURATION_SECONDS} s per mode after ${WARMUP_SECONDS} s warm-ups, off/on alternating)`,
    );
    for (const mode of ["off", "on"] as const) {
      for (const [i, r] of runs[mode].entries()) console.log(line(`logging ${mode}, round ${i + 1}`, r));
    }
    console.log(`  requests recorded in the last day (the organisation's summary): ${recorded}`);
    const ratio = mean(runs.on) / mean(runs.off);
    console.log(`  logging on / off req/s: ${ratio.toFixed(3)} (target ≥ 0.9: ${ratio >= 0.9 ? "met" : "NOT met"})`);
  } finally {
    await hosts.on.close();
    await hosts.off.close();
    await stack.stop();
  }
}
