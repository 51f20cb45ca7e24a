// Custody over HTTP: the signing audit log for auditors, the custody partitions custodians activate (M of N), and the
// move of an organisation's keys to the HSM for the platform operator. The keys themselves stay in host/custody/.
import { definePlugin } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { SEAT_MUTATION_KINDS } from "./key-move-seats.ts";
import { moveKeysTask } from "./key-move-task.ts";
import { migrationRoutes } from "./migration-routes.ts";
import { migrations } from "./migrations.ts";
import { partitionRoutes } from "./partition-routes.ts";
import { PERMISSIONS } from "./permissions.ts";
import { signatureRoutes } from "./signature-routes.ts";

export default definePlugin({
  id: "custody",
  requires: ["custody"],
  errors: ERRORS,
  permissions: PERMISSIONS,
  migrations,
  routes: (app, ctx) => {
    signatureRoutes(app, ctx);
    partitionRoutes(app, ctx);
    migrationRoutes(app, ctx);
  },
  tasks: (ctx) => ({ "move-keys": moveKeysTask(ctx) }),
  // The writes of a move to the HSM (key-move-task.ts); a repeat of a funding write attaches whatever the balance.
  mutationKinds: {
    "custody.grantRole": {},
    "custody.fund": { idempotencyIgnoresPayload: true },
    "custody.renounceRole": {},
    "custody.addKey": {},
    "custody.removeKey": {},
    "custody.setManager": {},
    "custody.transferOwnership": {},
    "custody.acceptOwnership": {},
    // Signed again in the HSM on a repeat, which need not make the same signature: attached all the same.
    "custody.reissueClaim": { idempotencyIgnoresPayload: true },
    "custody.replaceSigner": {},
    ...SEAT_MUTATION_KINDS,
  },
});

// The operator function scripts/cli.ts calls: a plugin's index.ts is its only public entry.
export { requestKeyMigration } from "./migration-store.ts";
