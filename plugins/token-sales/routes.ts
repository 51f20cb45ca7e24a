// Token sales: create (the system's token-sale factory), read (the index), purchase and withdraw (the sale itself).

import { createRoute, z } from "@hono/zod-openapi";
import { type Address, encodeFunctionData, getAddress } from "viem";
import { TokenSaleAbi } from "../../abis/TokenSale.ts";
import { TokenSaleFactoryAbi } from "../../abis/TokenSaleFactory.ts";
import { systemAddonFactory } from "../../host/addons/factory.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { ApiError, badRequest } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { AddressSchema, jsonBody, mutationResponses, singleResponses } from "../../host/http/schemas.ts";
import { submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { assertCreatable, assertPurchasable, assertWithdrawable } from "./prechecks.ts";
import { findSale, toTokenSale, visibleSale } from "./sale-read.ts";
import { CreateTokenSaleBodySchema, PurchaseBodySchema, TokenSaleSchema, WithdrawalBodySchema } from "./schemas.ts";

const TAGS = ["addons"];
const BASE = "/api/v2/addons/token-sales";
const params = z.object({ address: AddressSchema.openapi({ description: "The sale's address" }) });
const VISIBILITY =
  "A sale is public: any organisation may purchase in it, given its address (the issuer tells would-be buyers). " +
  "It is readable by the organisation that created it and by organisations whose wallets purchased in it; " +
  "for anyone else, as for an unknown address, 404 TOKEN_SALE_NOT_FOUND.";

const create = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  summary: "Create a token sale (create(...) on the system's token-sale factory; the signing wallet is the issuer)",
  description:
    "tokenAddress must be a token of your organisation's system (else 422 TOKEN_SALE_TOKEN_INVALID); paymentAsset " +
    "a token of the system or a registered external token (else 422 TOKEN_SALE_PAYMENT_ASSET_INVALID). Then the " +
    "issuer grants the sale a token allowance for hardCap (POST /api/v2/tokens/{tokenAddress}/approvals): tokens move " +
    "from the issuer when buyers withdraw; GET shows issuerAllowance. Completed: data.saleAddress.",
  middleware: [requirePermission("tokenSale:create")],
  request: { body: jsonBody(CreateTokenSaleBodySchema) },
  responses: mutationResponses,
});

const read = createRoute({
  method: "get",
  path: `${BASE}/{address}`,
  tags: TAGS,
  summary: "Read a token sale: terms, status, totals, purchases per buyer, the issuer's allowance",
  description: VISIBILITY,
  middleware: [requirePermission("tokenSale:read")],
  request: { params },
  responses: singleResponses(TokenSaleSchema, "The sale"),
});

const purchase = createRoute({
  method: "post",
  path: `${BASE}/{address}/purchases`,
  tags: TAGS,
  summary: "Buy tokens in a sale (purchase(amount); the signing wallet is the buyer and pays priceOf(amount))",
  description:
    `${VISIBILITY} Refused before queueing: 409 TOKEN_SALE_NOT_OPEN outside the dates, 422 ` +
    "TOKEN_SALE_HARD_CAP_EXCEEDED above what is left (details.available), 422 ERC20_ALLOWANCE_INSUFFICIENT or " +
    "ERC20_BALANCE_INSUFFICIENT when the signing wallet's allowance to the sale or balance of the payment asset " +
    "is below the payment (details.required). Grant the allowance first (POST /api/v2/tokens/{tokenAddress}/approvals).",
  middleware: [requirePermission("tokenSale:participate")],
  request: { params, body: jsonBody(PurchaseBodySchema) },
  responses: mutationResponses,
});

const withdraw = createRoute({
  method: "post",
  path: `${BASE}/{address}/withdrawals`,
  tags: TAGS,
  summary: "Withdraw what a sale owes the signing wallet after its end (withdraw())",
  description:
    "Soft cap reached: a buyer its tokens, the issuer the proceeds. Soft cap missed: a buyer its payment back. " +
    "Refused before queueing: 409 TOKEN_SALE_NOT_ENDED before the end, 409 TOKEN_SALE_NOTHING_TO_WITHDRAW when " +
    "nothing is due. Visible as for GET (404 TOKEN_SALE_NOT_FOUND otherwise).",
  middleware: [requirePermission("tokenSale:participate")],
  request: { params, body: jsonBody(WithdrawalBodySchema, false) },
  responses: mutationResponses,
});

/** The system's token-sale factory (every system has one: the add-on catalogue). */
async function saleFactory(chain: RequestChain): Promise<Address> {
  const factory = await systemAddonFactory(chain.ledger, chain.systemAddress as Address, "token-sale");
  // A system created before the add-on catalogue has none (a clear 409, not a 500).
  if (!factory)
    throw new ApiError("CONFLICT", { message: `The system ${chain.systemAddress} has no token-sale addon` });
  return factory;
}

const MAX_UINT64 = 2n ** 64n - 1n;

/** An ISO date as the contract's uint64 unix seconds; one outside 1970..uint64 is refused as the body's error. */
function seconds(date: Date, field: string): bigint {
  const value = BigInt(Math.floor(date.getTime() / 1000));
  if (value < 0n || value > MAX_UINT64) {
    throw badRequest(`${field} is out of range`, [{ path: field, message: "must be after 1970-01-01" }]);
  }
  return value;
}

export function tokenSaleRoutes(app: App, ctx: PluginContext) {
  app.openapi(create, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, async (chain) => {
      const token = getAddress(body.tokenAddress);
      const paymentAsset = getAddress(body.paymentAsset);
      const terms = {
        priceWad: BigInt(body.priceWad),
        hardCap: BigInt(body.hardCap),
        softCap: BigInt(body.softCap ?? "0"),
        startDate: seconds(body.startDate, "startDate"),
        endDate: seconds(body.endDate, "endDate"),
      };
      return {
        precheck: () => assertCreatable(chain, { token, paymentAsset, terms }),
        kind: "tokenSale.create",
        to: await saleFactory(chain),
        data: encodeFunctionData({
          abi: TokenSaleFactoryAbi,
          functionName: "create",
          args: [token, paymentAsset, terms.priceWad, terms.hardCap, terms.softCap, terms.startDate, terms.endDate],
        }),
      };
    });
  });

  app.openapi(read, async (c) => {
    const chain = await requestChain(c, ctx);
    const { sale, purchases } = await visibleSale(c, ctx, chain, getAddress(c.req.valid("param").address));
    return c.json(single(c, await toTokenSale(chain, sale, purchases)), 200);
  });

  app.openapi(purchase, async (c) => {
    const address = getAddress(c.req.valid("param").address);
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, async (chain, signer) => {
      const sale = await findSale(chain, address);
      const amount = BigInt(body.amount);
      return {
        precheck: () => assertPurchasable(chain, sale, signer, amount),
        kind: "tokenSale.purchase",
        to: address,
        data: encodeFunctionData({ abi: TokenSaleAbi, functionName: "purchase", args: [amount] }),
      };
    });
  });

  app.openapi(withdraw, async (c) => {
    const address = getAddress(c.req.valid("param").address);
    return submitSystemWrite(c, ctx, c.req.valid("json"), async (chain, signer) => {
      const { sale, purchases } = await visibleSale(c, ctx, chain, address);
      return {
        precheck: () => assertWithdrawable(chain, sale, purchases, signer),
        kind: "tokenSale.withdraw",
        to: address,
        data: encodeFunctionData({ abi: TokenSaleAbi, functionName: "withdraw" }),
      };
    });
  });
}
