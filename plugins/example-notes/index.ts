// The example plugin: a minimal plugin to copy. Notes an organisation writes, with every part of the contract
// (host/plugin.ts) in use: routes, a task, a cron entry, a migration, permissions, an error code and a webhook event.
// Not in plugins/index.ts: load it with PLUGIN_MODULES=plugins/example-notes/index.ts (test/example-plugin.test.ts).
import { ROLES } from "../../host/auth/permissions.ts";
import { definePlugin } from "../../host/plugin.ts";
import { migrations } from "./migrations.ts";
import { noteRoutes } from "./routes.ts";
import { NoteCreatedPayload } from "./schemas.ts";
import { countWordsTask, digestTask } from "./tasks.ts";

export default definePlugin({
  id: "example-notes",
  routes: noteRoutes,
  tasks: (ctx) => ({ "count-words": countWordsTask(ctx), digest: digestTask(ctx) }),
  crontab: [{ task: "digest", schedule: "* * * * *" }],
  migrations,
  permissions: {
    "exampleNote:write": ["owner", "admin"],
    "exampleNote:read": ROLES,
  },
  errors: {
    EXAMPLE_NOTE_NOT_FOUND: {
      id: "SVC-9901",
      status: 404,
      category: "client",
      retryable: false,
      message: "Note not found.",
      why: "Your organisation has no note with this id.",
      fix: "List the notes with GET /api/v2/example/notes and use one of their ids.",
    },
  },
  webhookEvents: {
    "example.note.created": { description: "A note was created.", payload: NoteCreatedPayload },
  },
});
