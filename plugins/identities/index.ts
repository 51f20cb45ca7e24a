// Identities: wallets onboarded into the system's identity registry (claims and reads arrive with the read models).
import { parseEventLogs } from "viem";
import { IdentityRegistryAbi } from "../../abis/IdentityRegistry.ts";
import { definePlugin } from "../../host/plugin.ts";
import { identityRoutes } from "./routes.ts";

export default definePlugin({
  id: "identities",
  routes: identityRoutes,
  mutationKinds: {
    "identity.register": {
      result(receipt) {
        const [registered] = parseEventLogs({
          abi: IdentityRegistryAbi,
          logs: receipt.logs,
          eventName: "IdentityRegistered",
        });
        if (!registered) throw new Error("IdentityRegistered missing from the receipt");
        const { wallet, identity, country } = registered.args;
        return { wallet, identity, country };
      },
    },
  },
});
