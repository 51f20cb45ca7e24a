// Workflow-engine recovery mapped onto graphile-worker: the doctor readout, re-registering a worker process,
// cleaning up stopped ones, and purging a permanently failed job; every call audited.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { migrations } from "./migrations.ts";
import { workflowEngineRoutes } from "./routes.ts";

export default definePlugin({
  id: "workflow-engine",
  errors: ERRORS,
  migrations,
  routes: workflowEngineRoutes,
});
