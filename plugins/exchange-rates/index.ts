// Exchange rates (issue #17, part 3): AggregatorV3-shaped feeds per currency pair in each system's feed registry,
// indexed (src/ExchangeRateFeed.ts); manual overrides stored by the platform; providers `file` and `ecb`; an hourly
// sync across the cluster.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { migrations } from "./migrations.ts";
import { PERMISSIONS } from "./permissions.ts";
import { exchangeRateRoutes } from "./routes.ts";
import { ExchangeRateSettings } from "./settings.ts";
import { MUTATION_KINDS } from "./sync.ts";
import { syncAllTask } from "./tasks.ts";

export default definePlugin({
  id: "exchange-rates",
  settings: ExchangeRateSettings,
  routes: exchangeRateRoutes,
  tasks: (ctx) => ({ sync: syncAllTask(ctx) }),
  crontab: [{ task: "sync", schedule: "7 * * * *" }],
  migrations,
  permissions: PERMISSIONS,
  errors: ERRORS,
  mutationKinds: MUTATION_KINDS,
});
