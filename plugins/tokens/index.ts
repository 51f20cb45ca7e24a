// Tokens: templates, creation with features and compliance, reads from the index, feature updates, supply
// operations, and the legacy token reads.
import { definePlugin } from "../../host/plugin.ts";
import { createTokenRoutes } from "./create-token-route.ts";
import { ERRORS } from "./errors.ts";
import { featureUpdateRoutes } from "./feature-update-route.ts";
import { legacyTokenRoutes } from "./legacy-routes.ts";
import { tokenListRoute } from "./list-route.ts";
import { migrations } from "./migrations.ts";
import { tokenMutationKinds } from "./mutation-kinds.ts";
import { tokenOperationRoutes } from "./operation-routes-index.ts";
import { PERMISSIONS } from "./permissions.ts";
import { REVERT_ERRORS } from "./revert-errors.ts";
import { tokenRoutes } from "./routes.ts";
import { templateRoutes } from "./template-routes.ts";
import { TOKEN_WEBHOOK_EVENTS } from "./webhook-events.ts";

export default definePlugin({
  id: "tokens",
  requires: ["complianceTemplates"],
  errors: ERRORS,
  permissions: PERMISSIONS,
  revertErrors: REVERT_ERRORS,
  migrations,
  routes: (app, ctx) => {
    templateRoutes(app, ctx);
    createTokenRoutes(app, ctx);
    tokenListRoute(app, ctx);
    tokenRoutes(app, ctx);
    featureUpdateRoutes(app, ctx);
    legacyTokenRoutes(app, ctx);
    tokenOperationRoutes(app, ctx);
  },
  mutationKinds: tokenMutationKinds,
  webhookEvents: TOKEN_WEBHOOK_EVENTS,
});
