// Token servicing writes: mint, burn, transfer, approval, forced transfer, address and partial freezes, pause; one
// file per family, mounted in the order the OpenAPI document lists them.
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { freezeOperationRoutes } from "./freeze-operations.ts";
import { supplyOperationRoutes } from "./supply-operations.ts";
import { transferOperationRoutes } from "./transfer-operations.ts";

export function operationRoutes(app: App, ctx: PluginContext) {
  supplyOperationRoutes(app, ctx);
  transferOperationRoutes(app, ctx);
  for (const frozen of [true, false]) freezeOperationRoutes(app, ctx, frozen);
}
