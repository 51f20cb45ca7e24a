// The system's contract catalogue (issue #6): the directory with its type catalogues, and the addon factories.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { PERMISSIONS } from "./permissions.ts";
import { directoryRoutes } from "./routes.ts";

export default definePlugin({
  id: "directory",
  routes: directoryRoutes,
  errors: ERRORS,
  permissions: PERMISSIONS,
});
