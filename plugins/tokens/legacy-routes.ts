// Unversioned legacy reads, in their legacy wrappers (not the v2 envelope).
import { createRoute, z } from "@hono/zod-openapi";
import type { Address } from "viem";
import { formatUnits } from "viem";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import type { App } from "../../host/http/env.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { findOrgToken } from "./routes.ts";
import { LegacyHolderSchema } from "./schemas.ts";

const holders = createRoute({
  method: "get",
  path: "/api/token/{tokenAddress}/holders",
  tags: ["legacy"],
  summary: "Token holders (legacy wrapper)",
  middleware: [requirePermission("token:read")],
  request: {
    params: z.object({ tokenAddress: AddressSchema }),
    query: z.object({
      limit: z.coerce.number().int().min(1).max(1000).default(100),
      offset: z.coerce.number().int().min(0).default(0),
    }),
  },
  responses: {
    200: {
      description: "Balances with decimal-string amounts (token decimals applied)",
      content: {
        "application/json": {
          schema: z.object({
            token: z.object({ balances: z.array(LegacyHolderSchema) }),
            totalCount: z.number().int(),
          }),
        },
      },
    },
  },
});

export function legacyTokenRoutes(app: App, ctx: PluginContext) {
  app.openapi(holders, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const { limit, offset } = c.req.valid("query");
    const chain = await requestChain(c, ctx.db.platform, [ctx.chain.chainId]);
    const token = await findOrgToken(ctx, chain.systemAddress, tokenAddress);
    const base = ctx.db.ledger
      .selectFrom("tokenBalance")
      .where("token", "=", token.id as Address)
      .where("value", ">", 0n);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy("value", "desc").orderBy("account").limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow(),
    ]);
    const fmt = (v: bigint) => formatUnits(v, token.decimals);
    return c.json(
      {
        token: {
          balances: rows.map((r) => ({
            account: { id: r.account },
            value: fmt(r.value),
            available: fmt(r.value - r.frozen),
            frozen: fmt(r.frozen),
            isFrozen: r.isFrozen,
            lastUpdatedAt: new Date(Number(r.lastUpdatedAt) * 1000).toISOString(),
          })),
        },
        totalCount: Number(count.n),
      },
      200,
    );
  });
}
