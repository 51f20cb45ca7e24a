// The Prometheus families GET /metrics serves, registered on one registry in the order they are listed.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

export type MetricFamilies = ReturnType<typeof metricFamilies>;

export function metricFamilies(registry: Registry) {
  const labels = ["method", "route", "status_class", "request_type"] as const;
  const requests = new Counter({
    name: "api_requests_total",
    help: "API requests answered by this host process, by route template and status class",
    labelNames: labels,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "api_request_duration_seconds",
    help: "API request duration (to the response head) by route template and status class",
    labelNames: labels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  return {
    requests,
    latency,
    queueDepth: gauge("worker_queue_depth", "Jobs waiting or running, by task", ["task"]),
    jobFailures: gauge("worker_jobs_failed", "Jobs that failed their last attempt, by task", ["task"]),
    jobsDead: gauge("worker_jobs_permanently_failed", "Jobs out of attempts, by task", ["task"]),
    chainHead: gauge("chain_head_block", "A served chain's newest block", ["chain_id"]),
    indexHead: gauge("index_head_block", "The newest block the index has processed", ["chain_id"]),
    indexLag: gauge("index_lag_blocks", "Chain head minus index head", ["chain_id"]),
    deliveries: gauge("webhook_deliveries", "Webhook deliveries by outcome (status)", ["outcome"]),
    droppedLogs: gauge("request_log_dropped_total", "Request log records this process could not write"),
    unfinal: gauge(
      "transaction_requests_awaiting_finality",
      "Mined writes (COMPLETED, or FAILED by a revert) whose block is not yet final (the chain's finality depth), " +
        "watched for reorgs",
      ["chain_id"],
    ),
    reorged: gauge(
      "transaction_requests_reorged",
      "Writes a reorg removed after they completed, back in CONFIRMING (sub-status REORGED) until mined again",
      ["chain_id"],
    ),
    reorgs: gauge("transaction_request_reorgs_total", "Mined writes a reorg removed, ever", ["chain_id"]),
  };
}
