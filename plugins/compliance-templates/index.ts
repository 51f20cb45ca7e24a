// Compliance templates (settings): reusable policy templates, the library's and the organisation's, that token
// creation uses once published. Controls and their params come from the domain catalogue (domain/compliance).
import { definePlugin } from "../../host/plugin.ts";
import { complianceTemplates } from "./capability.ts";
import { ERRORS } from "./errors.ts";
import { migrations } from "./migrations.ts";
import { PERMISSIONS } from "./permissions.ts";
import { readRoutes } from "./read-routes.ts";
import { writeRoutes } from "./write-routes.ts";

export default definePlugin({
  id: "compliance-templates",
  provides: { complianceTemplates: (ctx) => complianceTemplates(ctx.db.platform) },
  errors: ERRORS,
  permissions: PERMISSIONS,
  migrations,
  routes: (app, ctx) => {
    readRoutes(app, ctx);
    writeRoutes(app, ctx);
  },
});
