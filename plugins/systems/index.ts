// An organisation's system on a chain: deployed through the transaction pipeline, recorded once mined.
import { type Address, parseEventLogs } from "viem";
import { SystemFactoryAbi } from "../../abis/SystemFactory.ts";
import type { SystemContracts } from "../../host/db/platform-types.ts";
import { definePlugin } from "../../host/plugin.ts";
import { deployOrganizationTask } from "./deploy-task.ts";
import { ERRORS } from "./errors.ts";
import { executorPolicyRoutes } from "./executor-policy-routes.ts";
import { migrations } from "./migrations.ts";
import { organizationRoutes } from "./organization-routes.ts";
import { PERMISSIONS } from "./permissions.ts";
import { provisionTask } from "./provision.ts";
import { SYSTEM_WEBHOOK_EVENTS } from "./webhook-events.ts";

export default definePlugin({
  id: "systems",
  requires: ["custody", "deployment"],
  errors: ERRORS,
  permissions: PERMISSIONS,
  migrations,
  routes: (app, ctx) => {
    executorPolicyRoutes(app, ctx);
    organizationRoutes(app, ctx);
  },
  tasks: (ctx) => ({ provision: provisionTask(ctx), "deploy-organization": deployOrganizationTask(ctx) }),
  webhookEvents: SYSTEM_WEBHOOK_EVENTS,
  mutationKinds: {
    "system.create": {
      result(receipt) {
        const [created] = parseEventLogs({
          abi: SystemFactoryAbi,
          logs: receipt.logs,
          eventName: "SystemContractsCreated",
        });
        if (!created) throw new Error("SystemContractsCreated missing from the receipt");
        const contracts = Object.fromEntries(
          Object.entries(created.args.contracts).map(([role, address]) => [role, address.toLowerCase()]),
        );
        return {
          systemAddress: created.args.system,
          tokenFactoryAddress: created.args.contracts.tokenFactory,
          contracts,
        };
      },
      async onCompleted(trx, request, result) {
        await trx
          .updateTable("organizationChains")
          .set({
            status: "ready",
            systemAddress: (result.systemAddress as Address).toLowerCase(),
            tokenFactoryAddress: (result.tokenFactoryAddress as Address).toLowerCase(),
            contracts: JSON.stringify(result.contracts) as unknown as SystemContracts,
            updatedAt: new Date(),
          })
          .where("organizationId", "=", request.organizationId)
          .where("chainId", "=", request.chainId)
          .execute();
      },
    },
  },
});

// The operator functions scripts/ (bootstrap, cli) call: a plugin's index.ts is its only public entry.
export { createOrganization, requestSystemProvisioning } from "./organizations.ts";
