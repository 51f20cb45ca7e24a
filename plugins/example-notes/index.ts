// The example plugin: a minimal plugin to copy. Notes an organisation writes, with every part of the contract
// (host/plugin.ts) in use: routes, a task, a cron entry, a migration, permissions, an error code and a webhook event.
// Not in plugins/index.ts: load it with PLUGIN_MODULES=plugins/example-notes/index.ts (test/example-plugin.test.ts).
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { migrations } from "./migrations.ts";
import { PERMISSIONS } from "./permissions.ts";
import { noteRoutes } from "./routes.ts";
import { NoteCreatedPayload } from "./schemas.ts";
import { countWordsTask, digestTask } from "./tasks.ts";

export default definePlugin({
  id: "example-notes",
  routes: noteRoutes,
  tasks: (ctx) => ({ "count-words": countWordsTask(ctx), digest: digestTask(ctx) }),
  // A worker process that starts makes up the minutes of the last five that no worker ran.
  crontab: [{ task: "digest", schedule: "* * * * *", fill: "5m" }],
  migrations,
  permissions: PERMISSIONS,
  errors: ERRORS,
  webhookEvents: {
    "example.note.created": { description: "A note was created.", payload: NoteCreatedPayload },
  },
});
