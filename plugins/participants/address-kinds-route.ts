// GET /api/v2/participants/address-kinds: every custody wallet of the organisation, lowercase address → eoa or
// smart-wallet. Without the userSearch permission the map is empty (wallets belong to people and the organisation).
import { createRoute, z } from "@hono/zod-openapi";
import { hasPermission } from "../../host/auth/permissions.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { singleResponses } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";

const AddressKindsSchema = z
  .record(z.string(), z.enum(["eoa", "smart-wallet"]))
  .openapi("AddressKinds", { description: "Lowercase wallet address → eoa or smart-wallet" });

const addressKinds = createRoute({
  method: "get",
  path: "/api/v2/participants/address-kinds",
  tags: ["participants"],
  summary: "Which of the organisation's wallets are EOAs and which smart wallets",
  middleware: [requirePermission("participant:read")],
  responses: singleResponses(AddressKindsSchema, "The address-to-kind map"),
});

export function addressKindsRoutes(app: App, ctx: PluginContext) {
  // Not per chain: custody wallets are platform rows of the organisation, whatever the chain.
  app.openapi(addressKinds, async (c) => {
    const { organizationId, roles } = c.get("principal");
    if (!hasPermission(roles, "userSearch")) return c.json(single(c, {}), 200);
    const wallets = await ctx.db.platform
      .selectFrom("wallets")
      .select(["address", "kind"])
      .where("organizationId", "=", organizationId)
      .where("kind", "!=", "paymaster") // a contract that pays gas, not a wallet of anyone
      .orderBy("address")
      .execute();
    const kinds = Object.fromEntries(
      wallets.map((w) => [w.address.toLowerCase(), w.kind === "smart-wallet" ? "smart-wallet" : "eoa"] as const),
    );
    return c.json(single(c, kinds), 200);
  });
}
