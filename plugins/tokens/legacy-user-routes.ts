// Legacy user reads: the caller's holdings and events in the organisation's tokens (legacy wrappers).
// The caller's wallets are the organisation's custody wallets that act for them: the organisation-wide ones and any
// assigned to the calling user. `wallet` narrows to one of them; another address is refused (403 FORBIDDEN).
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Address } from "viem";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { TokenEventSchema } from "./events-collection.ts";
import { involving, LegacyPageQuerySchema, legacyEventsPage, toLegacyHolder } from "./legacy-query.ts";
import { LegacyHolderSchema } from "./schemas.ts";

const WalletQuery = { wallet: AddressSchema.optional().openapi({ description: "one of your wallets (default: all)" }) };

const LegacyAssetSchema = z.object({
  token: z.object({
    id: z.string(),
    name: z.string(),
    symbol: z.string(),
    decimals: z.number().int(),
    type: z.string(),
  }),
  balance: LegacyHolderSchema,
});

const assets = createRoute({
  method: "get",
  path: "/api/user/assets",
  tags: ["legacy"],
  summary: "Your wallets' holdings in the organisation's tokens (legacy wrapper)",
  middleware: [requirePermission("token:read")],
  request: { query: LegacyPageQuerySchema.extend(WalletQuery) },
  responses: {
    200: {
      description: "One entry per token and wallet with a balance; decimal strings (token decimals applied)",
      content: {
        "application/json": {
          schema: z.object({
            wallets: z.array(z.string()),
            assets: z.array(LegacyAssetSchema),
            totalCount: z.number().int(),
          }),
        },
      },
    },
  },
});

const userEvents = createRoute({
  method: "get",
  path: "/api/user/events",
  tags: ["legacy"],
  summary: "Events of the organisation's tokens that your wallets sent or are involved in (legacy wrapper)",
  middleware: [requirePermission("token:read")],
  request: { query: LegacyPageQuerySchema.extend(WalletQuery) },
  responses: {
    200: {
      description: "The events, newest first; amounts in values are raw integers",
      content: {
        "application/json": {
          schema: z.object({
            wallets: z.array(z.string()),
            events: z.array(TokenEventSchema),
            totalCount: z.number().int(),
          }),
        },
      },
    },
  },
});

export function legacyUserRoutes(app: App, ctx: PluginContext) {
  /**
   * The caller's wallets (lowercase), narrowed to `wallet` when given, and the organisation's system and index on the
   * request chain.
   */
  async function scope(c: Context<AppEnv>, wallet: string | undefined) {
    const principal = c.get("principal");
    const chain = await requestChain(c, ctx);
    const rows = await ctx.db.platform
      .selectFrom("wallets")
      .select("address")
      .where("organizationId", "=", principal.organizationId)
      .where((eb) => eb.or([eb("userId", "is", null), eb("userId", "=", principal.userId)]))
      .orderBy("createdAt")
      .execute();
    const own = rows.map((r) => r.address.toLowerCase());
    if (wallet !== undefined && !own.includes(wallet.toLowerCase())) {
      throw new ApiError("FORBIDDEN", {
        message: `${wallet} is not one of your wallets`,
        details: { wallet, wallets: own },
      });
    }
    return {
      ledger: chain.ledger,
      system: chain.systemAddress.toLowerCase() as Address,
      wallets: wallet ? [wallet.toLowerCase()] : own,
    };
  }

  app.openapi(assets, async (c) => {
    const { limit, offset, wallet } = c.req.valid("query");
    const { ledger, system, wallets } = await scope(c, wallet);
    const base = ledger
      .selectFrom("tokenBalance as b")
      .innerJoin("token as t", "t.id", "b.token")
      .where("t.system", "=", system)
      .where("b.account", "in", (wallets.length ? wallets : ["0x"]) as Address[])
      .where("b.value", ">", 0n);
    const [rows, count] = await Promise.all([
      base
        .select(["b.account", "b.value", "b.frozen", "b.isFrozen", "b.lastUpdatedAt"])
        .select(["t.id", "t.name", "t.symbol", "t.decimals", "t.type"])
        .orderBy("t.name")
        .orderBy("t.id")
        .orderBy("b.account")
        .limit(limit)
        .offset(offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow(),
    ]);
    const data = rows.map((r) => ({
      token: { id: r.id, name: r.name, symbol: r.symbol, decimals: r.decimals, type: r.type },
      balance: toLegacyHolder(r, r.decimals),
    }));
    return c.json({ wallets, assets: data, totalCount: Number(count.n) }, 200);
  });

  app.openapi(userEvents, async (c) => {
    const { limit, offset, wallet } = c.req.valid("query");
    const { ledger, system, wallets } = await scope(c, wallet);
    const page = await legacyEventsPage(ledger, { limit, offset }, (q) =>
      involving(
        q.where("token", "in", (db) => db.selectFrom("token").select("token.id").where("token.system", "=", system)),
        wallets,
      ),
    );
    return c.json({ wallets, ...page }, 200);
  });
}
