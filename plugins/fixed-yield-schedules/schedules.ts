// Reading schedules: the organisation's schedule by address (404 otherwise), the assets it names, and the view the
// GET route answers (terms and totals from the index; a completed period's yield and a holder's claimable live).

import { type Address, getAddress } from "viem";
import { FixedYieldScheduleAbi } from "../../abis/FixedYieldSchedule.ts";
import { schedulePeriods } from "../../domain/fixed-yield/periods.ts";
import { knownAssets } from "../../host/addons/assets.ts";
import { chainNow } from "../../host/chain/chain-time.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import type { LedgerTables } from "../../host/db/ledger-types.ts";
import { indexedHex, isoFromSeconds } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { FixedYieldScheduleView } from "./schemas.ts";

export type ScheduleRow = LedgerTables["fixedYieldSchedule"];

/** The schedule at `address` of the organisation's system on the request chain, or FIXED_YIELD_SCHEDULE_NOT_FOUND. */
export async function findSchedule(chain: RequestChain, address: string): Promise<ScheduleRow> {
  const row = await chain.ledger
    .selectFrom("fixedYieldSchedule")
    .selectAll()
    .where("id", "=", indexedHex(address))
    .where("system", "=", indexedHex(chain.systemAddress))
    .executeTakeFirst();
  if (!row) {
    throw new ApiError("FIXED_YIELD_SCHEDULE_NOT_FOUND", { details: { scheduleAddress: getAddress(address) } });
  }
  return row;
}

/** A platform token of the organisation's system on the request chain, with its features. */
export function systemToken(chain: RequestChain, address: string) {
  return chain.ledger
    .selectFrom("token")
    .select(["symbol", "decimals", "featureIds"])
    .where("id", "=", indexedHex(address))
    .where("system", "=", indexedHex(chain.systemAddress))
    .executeTakeFirst();
}

const onSchedule = (schedule: string) => ({ abi: FixedYieldScheduleAbi, address: getAddress(schedule) }) as const;

/** The yield of a completed period for every holder together (live: the token's supply at the period's end). */
export const periodYield = (chain: RequestChain, schedule: string, period: number) =>
  chain.client.readContract({ ...onSchedule(schedule), functionName: "periodYield", args: [BigInt(period)] });

/** What a claim by `holder` would pay now (live: it grows as periods complete). */
export async function claimableNow(chain: RequestChain, schedule: string, holder: Address): Promise<bigint> {
  const [amount] = await chain.client.readContract({
    ...onSchedule(schedule),
    functionName: "claimable",
    args: [holder],
  });
  return amount;
}

export async function scheduleView(
  chain: RequestChain,
  row: ScheduleRow,
  holder: Address | undefined,
): Promise<FixedYieldScheduleView> {
  const unknownAsset = { symbol: "", decimals: 18 };
  const [assets, now] = await Promise.all([
    knownAssets(chain.ledger, [row.token, row.denominationAsset], row.system as Address),
    chainNow(chain.client),
  ]);
  const metadata = (address: string) => {
    const known = assets.get(address.toLowerCase());
    return known ? { symbol: known.symbol, decimals: known.decimals } : unknownAsset;
  };
  const periods = schedulePeriods(row, now);
  const yields = await Promise.all(periods.map((p) => (p.completed ? periodYield(chain, row.id, p.index) : null)));
  const view: FixedYieldScheduleView = {
    address: getAddress(row.id),
    owner: getAddress(row.owner),
    token: { address: getAddress(row.token), ...metadata(row.token) },
    denominationAsset: { address: getAddress(row.denominationAsset), ...metadata(row.denominationAsset) },
    rateBps: Number(row.rateBps),
    interval: row.interval,
    intervalSeconds: Number(row.intervalSeconds),
    startDate: isoFromSeconds(row.startDate),
    endDate: isoFromSeconds(row.endDate),
    funded: (row.toppedUp - row.withdrawn - row.totalClaimed).toString(),
    totalClaimed: row.totalClaimed.toString(),
    periods: periods.map((p, i) => ({
      index: p.index,
      start: isoFromSeconds(p.start),
      end: isoFromSeconds(p.end),
      completed: p.completed,
      totalYield: yields[i]?.toString() ?? null,
    })),
  };
  if (holder) view.holder = await holderPosition(chain, row, holder);
  return view;
}

async function holderPosition(chain: RequestChain, row: ScheduleRow, holder: Address) {
  const [claims, claimable] = await Promise.all([
    chain.ledger
      .selectFrom("fixedYieldHolder")
      .select(["claimed", "nextPeriod"])
      .where("schedule", "=", row.id)
      .where("holder", "=", indexedHex(holder))
      .executeTakeFirst(),
    claimableNow(chain, row.id, holder),
  ]);
  const claimed = claims?.claimed ?? 0n;
  return {
    address: getAddress(holder),
    due: (claimed + claimable).toString(),
    claimed: claimed.toString(),
    claimable: claimable.toString(),
    nextPeriod: Number(claims?.nextPeriod ?? 0n),
  };
}
