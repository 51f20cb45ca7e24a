// The monitoring's settings (docs/configuration.md): the request log and who may read /metrics.
import { z } from "zod";
import { booleanSetting } from "../../host/config.ts";

export const MonitoringSettings = z.object({
  REQUEST_LOG_ENABLED: booleanSetting("true").describe(
    "Record every `/api` request for the monitoring routes; `false` records none (`/metrics` still counts).",
  ),
  REQUEST_LOG_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(31)
    .describe("Recorded requests older than this are pruned (hourly, across the cluster)."),
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe(
      "When set (16 characters or more), `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>` (else 401 " +
        "METRICS_TOKEN_INVALID). Unset, `/metrics` is open only while the database and the chain are both embedded; " +
        "with `DATABASE_URL`, `RPC_URL` or `CHAINS` set it answers 403 METRICS_TOKEN_REQUIRED until a token is set.",
    ),
});
export type MonitoringSettings = z.output<typeof MonitoringSettings>;
