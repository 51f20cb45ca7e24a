// The monitoring parts one host process holds once (the buffer, the LISTEN channel, the metrics registry), shared
// by the plugin's observers, timer and routes; owned by the platform (host/platform-state.ts), as a test may run a
// second host in the same Node process.
import type pg from "pg";
import { type ChannelListener, listenChannel } from "../../host/db/notifications.ts";
import { platformState } from "../../host/platform-state.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { createRecorder, LOG_CHANNEL, type LogNotice, type Recorder } from "./recorder.ts";

export interface MonitoringProcess {
  recorder: Recorder;
  /** Every process's flushed logs, by organisation (the flush NOTIFYs each one). */
  stream: ChannelListener;
  metrics: Metrics;
}

export const monitoringProcess = platformState((ctx: PluginContext<"webhookDeliveryStats">): MonitoringProcess => {
  const recorder = createRecorder(ctx, ctx.logger);
  return {
    recorder,
    stream: listenChannel(
      ctx.db.pool.options as pg.ClientConfig,
      LOG_CHANNEL,
      (payload) => (JSON.parse(payload) as LogNotice).organizationId,
    ),
    metrics: createMetrics(ctx, recorder.dropped),
  };
});
