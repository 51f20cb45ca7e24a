// The ERC-4337 v0.8 bundler: POST /api/v2/bundler (JSON-RPC, ERC-7769) for any client and any v0.8 account, a
// mempool in PostgreSQL, validation by simulation, and bundles (several operations per handleOps) sent by each
// organisation's bundler wallet through the transaction pipeline.
import { definePlugin } from "../../host/plugin.ts";
import { bundleTask, HANDLE_OPS_KIND, handleOpsKind } from "./bundle.ts";
import { ERRORS } from "./errors.ts";
import { migrations } from "./migrations.ts";
import { PERMISSIONS } from "./permissions.ts";
import { userOperationPool } from "./pool.ts";
import { bundlerRoutes } from "./routes.ts";
import { BundlerSettings } from "./settings.ts";

export default definePlugin({
  id: "bundler",
  settings: BundlerSettings,
  requires: ["custody", "deployment"],
  routes: bundlerRoutes,
  tasks: (ctx) => ({ bundle: bundleTask(ctx) }),
  migrations,
  permissions: PERMISSIONS,
  errors: ERRORS,
  mutationKinds: { [HANDLE_OPS_KIND]: handleOpsKind },
  provides: { userOperationPool: (ctx) => userOperationPool(ctx) },
});
