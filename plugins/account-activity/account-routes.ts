// An account's activity feed and metrics within the organisation's system: events where the address is the sender,
// account, emitter, token, system or an involved address. Callers without read access get the valid empty answer.
import { z } from "@hono/zod-openapi";
import { requestChain } from "../../host/chain/request-chain.ts";
import type { App } from "../../host/http/env.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { mayReadAccount } from "./account-access.ts";
import { feedRoutes } from "./feed-routes.ts";

export function accountActivityRoutes(app: App, ctx: PluginContext) {
  feedRoutes(app, {
    base: "/api/v2/system/accounts/{accountAddress}",
    tags: ["account"],
    subject: "An account's",
    description:
      "Your own wallets; with identityManager or claimIssuer, any wallet of the organisation, its system's contracts " +
      "and tokens, and its identities; with admin, systemManager, auditor or gasManager, the organisation's bundler " +
      "wallet and paymasters. Other callers get an empty feed and a flat series.",
    params: z.object({ accountAddress: AddressSchema.openapi({ param: { name: "accountAddress", in: "path" } }) }),
    async feed(c, { accountAddress }) {
      const chain = await requestChain(c, ctx);
      const principal = c.get("principal");
      const acting = c.get("requestContext")?.participantId ?? principal.userId;
      const address = accountAddress.toLowerCase();
      if (!(await mayReadAccount(ctx, chain, principal, acting, address))) return null;
      return { ledger: chain.ledger, system: chain.systemAddress, addresses: [address], feed: "account" };
    },
  });
}
