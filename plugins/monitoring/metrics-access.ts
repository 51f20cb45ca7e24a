// Who may read GET /metrics: with METRICS_TOKEN set, only a caller bearing it; without it, anyone only while the
// database and the chain are both embedded (a machine of one's own). An external database or chain means a deployment
// others can reach: then /metrics stays closed (403 METRICS_TOKEN_REQUIRED) until a token is configured.
import { timingSafeEqual } from "node:crypto";
import { type Config, runsEmbedded } from "../../host/config.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { MonitoringSettings } from "./settings.ts";

type MetricsConfig = Pick<MonitoringSettings, "METRICS_TOKEN"> & Pick<Config, "DATABASE_URL" | "RPC_URL" | "CHAINS">;

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.match(/^Bearer\s+(.+)$/i)?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Throws the refusal of a request with this Authorization header; returns when it may read the metrics. */
export function assertMetricsAccess(config: MetricsConfig, authorization: string | undefined): void {
  const token = config.METRICS_TOKEN;
  if (token === undefined) {
    if (runsEmbedded(config)) return;
    throw new ApiError("METRICS_TOKEN_REQUIRED", {
      message:
        "GET /metrics is closed: the database or the chain is external (DATABASE_URL, RPC_URL or CHAINS set) and " +
        "METRICS_TOKEN is not set",
    });
  }
  if (!tokenMatches(authorization, token)) throw new ApiError("METRICS_TOKEN_INVALID");
}
