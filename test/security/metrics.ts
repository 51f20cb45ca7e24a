// Unauthenticated resource growth through /metrics (issue: 200 POSTs to /api/rpc/card-<random> added 3,000 series):
// its labels are route templates, and any path no route matches is the one `unmatched` value, so 2,000 requests to
// made-up /api/rpc and /api/v2 paths leave the number of series where it was.
import { describe, expect, it } from "vitest";
import { type Family, parsePrometheusText } from "../support/prometheus-text.ts";
import type { AttackContextGetter } from "./context.ts";

const REQUESTS = 2_000; // each made-up path would add its own series: 2,000 show the bound as well as 10,000
const CONCURRENCY = 64;
/** Series from the database's state (jobs by task, deliveries by outcome), not from requests: they may come and go. */
const STATE_FAMILIES = new Set([
  "worker_queue_depth",
  "worker_jobs_failed",
  "worker_jobs_permanently_failed",
  "webhook_deliveries",
]);

const random = () => Math.random().toString(36).slice(2);
/** A made-up path of either transport, with either method. */
const attack = (i: number) => ({
  path: i % 2 === 0 ? `/api/rpc/card-${random()}/${random()}` : `/api/v2/${random()}/${random()}`,
  method: i % 4 < 2 ? "POST" : "GET",
});

export function metricsAttacks(ctx: AttackContextGetter) {
  describe("/metrics under unauthenticated made-up paths", () => {
    const scrape = async (): Promise<Map<string, Family>> => {
      const { stack } = ctx();
      const token = stack.env.METRICS_TOKEN;
      const res = await fetch(`${stack.platform.baseUrl}/metrics`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(res.status).toBe(200);
      return parsePrometheusText(await res.text());
    };
    const seriesOf = (families: Map<string, Family>) =>
      [...families.values()]
        .filter((f) => !STATE_FAMILIES.has(f.name))
        .flatMap((f) => f.samples.map((s) => `${s.name}${JSON.stringify(s.labels)}`))
        .sort();
    const unmatchedCount = (families: Map<string, Family>) =>
      (families.get("api_requests_total")?.samples ?? [])
        .filter((s) => s.labels.route === "unmatched")
        .reduce((sum, s) => sum + s.value, 0);
    const send = ({ path, method }: { path: string; method: string }) =>
      fetch(`${ctx().stack.platform.baseUrl}${path}`, { method, ...(method === "POST" ? { body: "{}" } : {}) }).then(
        async (res) => {
          await res.arrayBuffer();
          return res.status;
        },
      );

    it(`${REQUESTS} requests to random /api/rpc/* and /api/v2/* paths add no series`, async () => {
      // One request of each kind first: the `unmatched` series of each method and transport exist from then on.
      const warmUp = await Promise.all([0, 1, 2, 3].map((i) => send(attack(i))));
      expect(warmUp.every((status) => status >= 400 && status < 500)).toBe(true);
      const before = await scrape();

      const statuses = new Map<number, number>();
      let next = 0;
      const worker = async () => {
        while (next < REQUESTS) {
          const status = await send(attack(next++));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(
        [...statuses.keys()].every((status) => status >= 400 && status < 500),
        JSON.stringify([...statuses]),
      ).toBe(true);

      const after = await scrape();
      expect(seriesOf(after)).toEqual(seriesOf(before));
      expect(unmatchedCount(after) - unmatchedCount(before)).toBe(REQUESTS);
      const routes = new Set(after.get("api_requests_total")?.samples.map((s) => s.labels.route));
      expect([...routes].filter((route) => route?.includes("card-"))).toEqual([]);
    }, 120_000);
  });
}
