// Tokens: templates, creation, reads from the index, supply operations, and the legacy token reads.
import { definePlugin } from "../../host/plugin.ts";
import { legacyTokenRoutes } from "./legacy-routes.ts";
import { tokenMutationKinds } from "./mutation-kinds.ts";
import { tokenOperationRoutes } from "./operation-routes-index.ts";
import { tokenRoutes } from "./routes.ts";

export default definePlugin({
  id: "tokens",
  routes: (app, ctx) => {
    tokenRoutes(app, ctx);
    legacyTokenRoutes(app, ctx);
    tokenOperationRoutes(app, ctx);
  },
  mutationKinds: tokenMutationKinds,
});
