// The smart wallets' own routes: creation (wallet-create-route.ts) and reads (wallet-read-routes.ts).
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { walletCreateRoute } from "./wallet-create-route.ts";
import { walletReadRoutes } from "./wallet-read-routes.ts";

export function walletRoutes(app: App, ctx: PluginContext<"custody">) {
  walletCreateRoute(app, ctx);
  walletReadRoutes(app, ctx);
}
