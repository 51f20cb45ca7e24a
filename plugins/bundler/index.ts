// The ERC-4337 bundler (EntryPoint v0.7 and v0.8): POST /api/v2/bundler (JSON-RPC, ERC-7769) for any client and
// account, a mempool in PostgreSQL, validation by simulation (ERC-7562 in safe mode), and bundles (several operations
// per handleOps) sent by each organisation's executor wallets through the transaction pipeline.
import { definePlugin } from "../../host/plugin.ts";
import { bundleTask, HANDLE_OPS_KIND, handleOpsKind } from "./bundle.ts";
import { ERRORS } from "./errors.ts";
import { migrations } from "./migrations.ts";
import { PERMISSIONS } from "./permissions.ts";
import { userOperationPool } from "./pool.ts";
import { bundlerRoutes } from "./routes.ts";
import { BundlerSettings } from "./settings.ts";
import { WAKE_SWEEP_TASK, wakeSweepTask } from "./wake-sweep.ts";

export default definePlugin({
  id: "bundler",
  settings: BundlerSettings,
  requires: ["custody", "deployment"],
  routes: bundlerRoutes,
  tasks: (ctx) => ({ bundle: bundleTask(ctx), [WAKE_SWEEP_TASK]: wakeSweepTask(ctx) }),
  crontab: [{ task: WAKE_SWEEP_TASK, schedule: "* * * * *" }],
  migrations,
  permissions: PERMISSIONS,
  errors: ERRORS,
  mutationKinds: { [HANDLE_OPS_KIND]: handleOpsKind },
  provides: { userOperationPool: (ctx) => userOperationPool(ctx) },
});
