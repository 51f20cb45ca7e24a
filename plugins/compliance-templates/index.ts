// Compliance templates (settings): reusable policy templates, the library's and the organisation's, that token
// creation uses once published. Controls and their params come from the host's catalogue (host/compliance).
import { definePlugin } from "../../host/plugin.ts";
import { migrations } from "./migrations.ts";
import { readRoutes } from "./read-routes.ts";
import { writeRoutes } from "./write-routes.ts";

export default definePlugin({
  id: "compliance-templates",
  migrations,
  routes: (app, ctx) => {
    readRoutes(app, ctx);
    writeRoutes(app, ctx);
  },
});
