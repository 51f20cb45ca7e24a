// The webhooks plugin: organisations subscribe URLs to the event types the plugins emit (ctx.emit, recorded in
// platform.webhook_outbox); each event is fanned out to the subscribed endpoints and delivered signed (Standard
// Webhooks), at least once, with retries, one endpoint's failures never delaying another's.
import { definePlugin } from "../../host/plugin.ts";
import { deliverTask } from "./deliver.ts";
import { deliveryRoutes } from "./delivery-routes.ts";
import { webhookDeliveryStats } from "./delivery-stats.ts";
import { endpointRoutes } from "./endpoint-routes.ts";
import { ERRORS } from "./errors.ts";
import { eventTypeRoutes } from "./event-type-routes.ts";
import { fanOutTask } from "./fan-out.ts";
import { migrations } from "./migrations.ts";
import { PLUGIN_ID } from "./names.ts";
import { PERMISSIONS } from "./permissions.ts";
import { RECEIPTS_PATH, receiptRoutes } from "./receipts.ts";
import { WebhookSettings } from "./settings.ts";
import { sweepTask } from "./sweep.ts";

export default definePlugin({
  id: PLUGIN_ID,
  settings: WebhookSettings,
  requires: ["secrets"],
  provides: { webhookDeliveryStats: (ctx) => webhookDeliveryStats(ctx.db.platform) },
  routes(app, ctx) {
    endpointRoutes(app, ctx);
    deliveryRoutes(app, ctx);
    eventTypeRoutes(app, ctx);
    receiptRoutes(app, ctx);
  },
  // Receipts are authenticated by the subscriber's Standard Webhooks signature, not by an API key.
  publicPaths: [RECEIPTS_PATH],
  tasks: (ctx) => ({ "fan-out": fanOutTask(ctx), deliver: deliverTask(ctx), sweep: sweepTask(ctx) }),
  crontab: [{ task: "sweep", schedule: "* * * * *" }],
  migrations,
  permissions: PERMISSIONS,
  errors: ERRORS,
});
