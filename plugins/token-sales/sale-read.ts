// A token sale as the index holds it, who may see it, its status at the chain's time, and the GET resource.

import type { Context } from "hono";
import { type Address, erc20Abi, getAddress } from "viem";
import { knownAsset } from "../../host/addons/assets.ts";
import { chainNow } from "../../host/chain/chain-time.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { indexedHex, isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { AppEnv } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { saleStatus } from "./terms.ts";

export type SaleRow = LedgerTables["tokenSale"];
export type PurchaseRow = LedgerTables["tokenSalePurchase"];
export async function purchasesOf(chain: RequestChain, sale: Address): Promise<PurchaseRow[]> {
  return chain.ledger
    .selectFrom("tokenSalePurchase")
    .selectAll()
    .where("sale", "=", indexedHex(sale))
    .orderBy("ordinal")
    .execute();
}

/**
 * The sale at `address` on the request chain, for any organisation (anyone may buy), else 404 TOKEN_SALE_NOT_FOUND.
 * The index lists sales of every system; which one the caller may read is `visibleSale`'s question.
 */
export async function findSale(chain: RequestChain, address: Address): Promise<SaleRow> {
  const sale = await chain.ledger
    .selectFrom("tokenSale")
    .selectAll()
    .where("id", "=", indexedHex(address))
    .executeTakeFirst();
  if (!sale) throw notFound(address);
  return sale;
}

const notFound = (address: Address) =>
  new ApiError("TOKEN_SALE_NOT_FOUND", { message: `No token sale ${address} you may see`, details: { address } });

/** The sale, when the caller's organisation made it (its system) or one of its wallets purchased in it; else 404. */
export async function visibleSale(
  c: Context<AppEnv>,
  ctx: Pick<PluginContext, "db">,
  chain: RequestChain,
  address: Address,
) {
  const sale = await findSale(chain, address);
  const purchases = await purchasesOf(chain, address);
  if (sale.system === indexedHex(chain.systemAddress)) return { sale, purchases };
  const buyers = purchases.map((p) => p.buyer.toLowerCase());
  const own = buyers.length
    ? await ctx.db.platform
        .selectFrom("wallets")
        .select("address")
        .where("organizationId", "=", c.get("principal").organizationId)
        .where("address", "in", buyers)
        .executeTakeFirst()
    : undefined;
  if (!own) throw notFound(address);
  return { sale, purchases };
}

/** Name, symbol and decimals of a platform token or a registered external token (null when the index has neither). */
async function assetOf(chain: RequestChain, address: Address) {
  const known = await knownAsset(chain.ledger, address);
  return {
    address: getAddress(address),
    name: known?.name ?? null,
    symbol: known?.symbol ?? null,
    decimals: known?.decimals ?? null,
  };
}

/**
 * The GET resource. The token source's allowance (the first issuer's: buyers' tokens come from it even after the
 * issuer's seat was handed over) is read live: an ERC-20 approval leaves no event the index follows.
 */
export async function toTokenSale(chain: RequestChain, sale: SaleRow, purchases: PurchaseRow[]) {
  const address = getAddress(sale.id);
  const [now, token, paymentAsset, granted] = await Promise.all([
    chainNow(chain.client),
    assetOf(chain, sale.token),
    assetOf(chain, sale.paymentAsset),
    chain.client.readContract({
      abi: erc20Abi,
      address: getAddress(sale.token),
      functionName: "allowance",
      args: [getAddress(sale.tokenSource), address],
    }),
  ]);
  const required = sale.hardCap - sale.tokensWithdrawn;
  return {
    address,
    issuer: getAddress(sale.issuer),
    tokenSource: getAddress(sale.tokenSource),
    token,
    paymentAsset,
    priceWad: sale.priceWad.toString(),
    hardCap: sale.hardCap.toString(),
    softCap: sale.softCap.toString(),
    startDate: isoFromSeconds(sale.startDate),
    endDate: isoFromSeconds(sale.endDate),
    sold: sale.sold.toString(),
    remaining: (sale.hardCap - sale.sold).toString(),
    raised: sale.raised.toString(),
    status: saleStatus(sale, now),
    proceedsWithdrawn: sale.proceedsWithdrawn,
    issuerAllowance: { granted: granted.toString(), required: required.toString(), sufficient: granted >= required },
    purchases: purchases.map((p) => ({
      buyer: getAddress(p.buyer),
      amount: p.amount.toString(),
      payment: p.payment.toString(),
      withdrawn: p.withdrawn,
      refunded: p.refunded,
    })),
    createdAt: isoFromSeconds(sale.createdAt),
    deployedInTransaction: sale.deployedInTransaction,
  };
}
