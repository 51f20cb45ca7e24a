// A settlement as the organisation may see it (created by its system, or naming one of its wallets in a flow; else
// 404), read from the index, and its shape in the API.
import type { Context } from "hono";
import { type Address, getAddress } from "viem";
import { knownAssets } from "../../host/addons/assets.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { indexedHex, isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { AppEnv } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { settlementStatus } from "./status.ts";

type Ctx = Pick<PluginContext, "db">;

export interface Settlement {
  row: LedgerTables["xvpSettlement"];
  flows: LedgerTables["xvpSettlementFlow"][];
  approvals: LedgerTables["xvpSettlementApproval"][];
}

/** The organisation's wallets (lower-case), every kind. */
async function organisationWallets(ctx: Ctx, organizationId: string): Promise<string[]> {
  const rows = await ctx.db.platform
    .selectFrom("wallets")
    .select("address")
    .where("organizationId", "=", organizationId)
    .execute();
  return rows.map((r) => r.address.toLowerCase());
}

/**
 * The settlement at `address` on the request chain if the caller's organisation may see it, else 404
 * XVP_SETTLEMENT_NOT_FOUND.
 */
export async function visibleSettlement(
  c: Context<AppEnv>,
  ctx: Ctx,
  chain: RequestChain,
  address: string,
): Promise<Settlement> {
  const id = indexedHex(address);
  const notFound = new ApiError("XVP_SETTLEMENT_NOT_FOUND", {
    message: `No XvP settlement ${getAddress(address)} visible to the organisation`,
    details: { settlementAddress: getAddress(address) },
  });
  const row = await chain.ledger.selectFrom("xvpSettlement").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound;
  const [flows, approvals] = await Promise.all([
    chain.ledger.selectFrom("xvpSettlementFlow").selectAll().where("settlement", "=", id).orderBy("position").execute(),
    chain.ledger.selectFrom("xvpSettlementApproval").selectAll().where("settlement", "=", id).execute(),
  ]);
  if (row.system !== indexedHex(chain.systemAddress)) {
    const wallets = new Set(await organisationWallets(ctx, c.get("principal").organizationId));
    if (!row.accounts.some((account) => wallets.has(account.toLowerCase()))) throw notFound;
  }
  // Approvals in the contract's party order.
  const order = row.parties.map((p) => p.toLowerCase());
  approvals.sort((a, b) => order.indexOf(a.party) - order.indexOf(b.party));
  return { row, flows, approvals };
}

const checksum = (value: string) => getAddress(value as Address);
const isoOrNull = (seconds: bigint | null) => (seconds === null ? null : isoFromSeconds(seconds));

export async function toSettlement(chain: RequestChain, { row, flows, approvals }: Settlement, now: bigint) {
  const metadata = await knownAssets(
    chain.ledger,
    flows.map((f) => f.asset),
  );
  return {
    address: checksum(row.id),
    creator: checksum(row.creator),
    cutoffDate: isoFromSeconds(row.cutoff),
    hashlock: row.hashlock,
    status: settlementStatus({ ...row, approvals }, now),
    flows: flows.map((f) => ({
      asset: checksum(f.asset),
      from: checksum(f.from),
      to: checksum(f.to),
      amount: f.amount.toString(),
      symbol: metadata.get(f.asset)?.symbol ?? null,
      decimals: metadata.get(f.asset)?.decimals ?? null,
    })),
    approvals: approvals.map((a) => ({ party: checksum(a.party), approved: a.approved, at: isoOrNull(a.at) })),
    executedAt: isoOrNull(row.executedAt),
    executedInTransaction: row.executedInTransaction,
    secret: row.secret,
    cancelledAt: isoOrNull(row.cancelledAt),
    createdAt: isoFromSeconds(row.createdAt),
    deployedInTransaction: row.deployedInTransaction,
  };
}
