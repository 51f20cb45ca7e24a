// The /metrics page's pieces without a stack: request labels, and a scrape's readings onto the gauges (each family
// emptied first, so what is gone is gone from the page).
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { RequestRecord } from "../../host/plugin.ts";
import { metricFamilies } from "./metric-families.ts";
import { setGauges } from "./metric-gauges.ts";
import type { MetricReadings } from "./metric-readings.ts";
import { requestLabels } from "./metrics.ts";

const none: MetricReadings = { jobs: [], webhook: [], chains: [], finality: [] };

describe("metrics", () => {
  it("labels a request by route template and status class, unmatched when no route matched", () => {
    const record = { method: "GET", routeTemplate: null, statusCode: 404, requestType: "rest" } as RequestRecord;
    expect(requestLabels(record)).toEqual({
      method: "GET",
      route: "unmatched",
      status_class: "4xx",
      request_type: "rest",
    });
  });

  it("sets each gauge from a scrape's readings and empties it at the next", async () => {
    const registry = new Registry();
    const families = metricFamilies(registry);
    setGauges(
      families,
      {
        jobs: [{ task: "host:send-transaction", depth: 2, failed: 1, dead: 0 }],
        webhook: [{ outcome: "DELIVERED", count: 5 }],
        chains: [
          { chainId: "31337", head: 12n, indexed: 10 },
          { chainId: "1", head: undefined, indexed: 4 },
        ],
        finality: [{ chainId: 31337, unfinal: 3, reorged: 1, reorgs: 2 }],
      },
      7,
    );
    const page = await registry.metrics();
    expect(page).toContain('worker_queue_depth{task="host:send-transaction"} 2');
    expect(page).toContain('webhook_deliveries{outcome="DELIVERED"} 5');
    expect(page).toContain('index_lag_blocks{chain_id="31337"} 2');
    expect(page).not.toContain('index_lag_blocks{chain_id="1"}');
    expect(page).toContain('index_head_block{chain_id="1"} 4');
    expect(page).toContain('transaction_requests_awaiting_finality{chain_id="31337"} 3');
    expect(page).toContain("request_log_dropped_total 7");
    setGauges(families, none, 0);
    expect(await registry.metrics()).not.toContain("host:send-transaction");
  });
});
