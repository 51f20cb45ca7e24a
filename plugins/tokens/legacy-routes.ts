// Unversioned legacy token reads, in their legacy wrappers (not the v2 envelope): holders, one holder, events.
import { createRoute, z } from "@hono/zod-openapi";
import type { Address } from "viem";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import type { App } from "../../host/http/env.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { TokenEventSchema } from "./events-collection.ts";
import {
  LegacyEventsQuerySchema,
  LegacyPageQuerySchema,
  legacyEventsPage,
  refuseSenderWithWallet,
  toLegacyHolder,
} from "./legacy-query.ts";
import { findOrgToken, holderBalances } from "./routes.ts";
import { LegacyHolderSchema } from "./schemas.ts";

const TokenAddressParams = z.object({ tokenAddress: AddressSchema });
const ok = <T extends z.ZodType>(schema: T, description: string) => ({
  200: { description, content: { "application/json": { schema } } },
});

const holders = createRoute({
  method: "get",
  path: "/api/token/{tokenAddress}/holders",
  tags: ["legacy"],
  summary: "Token holders (legacy wrapper)",
  middleware: [requirePermission("token:read")],
  request: { params: TokenAddressParams, query: LegacyPageQuerySchema },
  responses: ok(
    z.object({ token: z.object({ balances: z.array(LegacyHolderSchema) }), totalCount: z.number().int() }),
    "Balances with decimal-string amounts (token decimals applied)",
  ),
});

const holder = createRoute({
  method: "get",
  path: "/api/token/{tokenAddress}/holder",
  tags: ["legacy"],
  summary: "One holder's balance (legacy wrapper)",
  description: "An address that never held the token answers with zero amounts.",
  middleware: [requirePermission("token:read")],
  request: { params: TokenAddressParams, query: z.object({ holderAddress: AddressSchema }) },
  responses: ok(z.object({ holder: LegacyHolderSchema }), "The balance, decimal strings (token decimals applied)"),
});

const events = createRoute({
  method: "get",
  path: "/api/token/{tokenAddress}/events",
  tags: ["legacy"],
  summary: "Token events (legacy wrapper, newest first)",
  description:
    "eventNames and transactionHashes may repeat; walletAddress matches events the wallet sent or is involved in; " +
    "senderAddress and walletAddress together are refused (400 BAD_REQUEST). Amounts in values are raw integers.",
  middleware: [requirePermission("token:read")],
  request: { params: TokenAddressParams, query: LegacyEventsQuerySchema },
  responses: ok(z.object({ events: z.array(TokenEventSchema), totalCount: z.number().int() }), "The events"),
});

export function legacyTokenRoutes(app: App, ctx: PluginContext) {
  /** The request chain and the organisation's token on it. */
  const tokenOf = async (c: Parameters<typeof requestChain>[0], tokenAddress: string) => {
    const chain = await requestChain(c, ctx);
    return { chain, token: await findOrgToken(chain, tokenAddress) };
  };

  app.openapi(holders, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const { limit, offset } = c.req.valid("query");
    const { chain, token } = await tokenOf(c, tokenAddress);
    const base = holderBalances(chain, token.id as Address);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy("value", "desc").orderBy("account").limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow(),
    ]);
    const balances = rows.map((r) => toLegacyHolder(r, token.decimals));
    return c.json({ token: { balances }, totalCount: Number(count.n) }, 200);
  });

  app.openapi(holder, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const { holderAddress } = c.req.valid("query");
    const { chain, token } = await tokenOf(c, tokenAddress);
    const account = holderAddress.toLowerCase() as Address;
    const row = await chain.ledger
      .selectFrom("tokenBalance")
      .selectAll()
      .where("token", "=", token.id as Address)
      .where("account", "=", account)
      .executeTakeFirst();
    const balance = row ?? { account, value: 0n, frozen: 0n, isFrozen: false, lastUpdatedAt: token.createdAt };
    return c.json({ holder: toLegacyHolder(balance, token.decimals) }, 200);
  });

  app.openapi(events, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const query = c.req.valid("query");
    refuseSenderWithWallet(query);
    const { chain, token } = await tokenOf(c, tokenAddress);
    const page = await legacyEventsPage(chain.ledger, query, (q) => q.where("token", "=", token.id as Address));
    return c.json(page, 200);
  });
}
