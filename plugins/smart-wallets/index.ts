// Smart wallets (ERC-4337 v0.8, contracts/smart-wallets/): one weighted-multisig account per participant, deployed
// by a resumable job and sponsored by the organisation's paymaster; `X-Executor: smart-wallet` turns any write of
// the API into the wallet's user operation, sent through the bundler's pool once its signers' weight reaches the
// threshold (PENDING_APPROVAL until co-signers sign).
import { definePlugin } from "../../host/plugin.ts";
import { approvalRoutes } from "./approval-routes.ts";
import { confirmTask } from "./confirm-task.ts";
import { DEPLOY_STEP_KIND, deployTask } from "./deploy-task.ts";
import { ERRORS } from "./errors.ts";
import { executeTask } from "./execute-task.ts";
import { smartWalletExecutor } from "./executor.ts";
import { migrations } from "./migrations.ts";
import { PERMISSIONS } from "./permissions.ts";
import { SmartWalletSettings } from "./settings.ts";
import { SPONSORSHIP_KIND, sponsorshipRoute } from "./sponsorship-route.ts";
import { THRESHOLD_KIND, thresholdRoute } from "./threshold-route.ts";
import { walletRoutes } from "./wallet-routes.ts";

export default definePlugin({
  id: "smart-wallets",
  settings: SmartWalletSettings,
  requires: ["custody", "deployment", "userOperationPool"],
  routes(app, ctx) {
    walletRoutes(app, ctx);
    thresholdRoute(app, ctx);
    sponsorshipRoute(app, ctx);
    approvalRoutes(app, ctx);
  },
  tasks: (ctx) => ({ deploy: deployTask(ctx), execute: executeTask(ctx), confirm: confirmTask(ctx) }),
  migrations,
  permissions: PERMISSIONS,
  errors: ERRORS,
  executors: { "smart-wallet": smartWalletExecutor },
  mutationKinds: { [DEPLOY_STEP_KIND]: {}, [THRESHOLD_KIND]: {}, [SPONSORSHIP_KIND]: {} },
});
