// What each write checks before it is queued and the call it makes: the creation (factory.create), top-ups,
// withdrawals and claims on the schedule.

import { type Address, encodeFunctionData, erc20Abi, getAddress } from "viem";
import { FixedYieldScheduleAbi } from "../../abis/FixedYieldSchedule.ts";
import { FixedYieldScheduleFactoryAbi } from "../../abis/FixedYieldScheduleFactory.ts";
import {
  FIXED_YIELD_INTERVALS,
  type FixedYieldInterval,
  MAX_PERIODS,
  totalPeriods,
} from "../../domain/fixed-yield/periods.ts";
import { knownAsset } from "../../host/addons/assets.ts";
import { systemAddonFactory } from "../../host/addons/factory.ts";
import { chainNow } from "../../host/chain/chain-time.ts";
import { assertErc20Funds } from "../../host/chain/erc20-funds.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { ApiError, badRequest } from "../../host/errors/api-error.ts";
import type { SystemWrite } from "../../host/mutations/system-write.ts";
import { claimableNow, findSchedule, systemToken } from "./schedules.ts";

const TYPE_NAME = "fixed-yield-schedule";
const HISTORICAL_BALANCES = "historical-balances";

export interface CreateInput {
  tokenAddress: string;
  rateBps: number;
  interval: string;
  startDate: Date;
  endDate: Date;
  denominationAsset: string;
}

const seconds = (date: Date) => BigInt(Math.floor(date.getTime() / 1000));
/** What `account` holds of the denomination asset (live: the balance the contract pays from). */
const balanceOf = (chain: RequestChain, asset: string, account: string) =>
  chain.client.readContract({
    abi: erc20Abi,
    address: getAddress(asset),
    functionName: "balanceOf",
    args: [getAddress(account)],
  });

/**
 * Refused with 400 before anything else: an end not after the start, too many periods, a start before 1970 (in the
 * past whenever asked; whether a later start is still ahead of the chain's clock is the write's pre-check).
 */
export function assertTerms(input: CreateInput) {
  const startDate = seconds(input.startDate);
  const endDate = seconds(input.endDate);
  if (startDate <= 0n) {
    throw badRequest("startDate must be in the future", [{ path: "startDate", message: "must be in the future" }]);
  }
  if (endDate <= startDate) {
    throw badRequest("endDate must be after startDate", [{ path: "endDate", message: "must be after startDate" }]);
  }
  const intervalSeconds = BigInt(FIXED_YIELD_INTERVALS[input.interval as FixedYieldInterval]);
  if (totalPeriods({ startDate, endDate, intervalSeconds }) > MAX_PERIODS) {
    const message = `must leave at most ${MAX_PERIODS} ${input.interval} periods after startDate`;
    throw badRequest(`endDate ${message}`, [{ path: "endDate", message }]);
  }
}

export async function createWrite(chain: RequestChain, input: CreateInput): Promise<SystemWrite> {
  const system = chain.systemAddress;
  const token = await systemToken(chain, input.tokenAddress);
  const tokenAddress = getAddress(input.tokenAddress);
  if (!token?.featureIds.includes(HISTORICAL_BALANCES)) {
    const reason = token ? "historical-balances-required" : "not-a-system-token";
    throw new ApiError("FIXED_YIELD_TOKEN_INVALID", {
      message: token
        ? `The token ${tokenAddress} lacks the historical-balances feature`
        : `${tokenAddress} is not a token of the organisation's system`,
      details: { tokenAddress, reason },
    });
  }
  const denominationAsset = getAddress(input.denominationAsset);
  if (!(await knownAsset(chain.ledger, denominationAsset, system))) {
    throw new ApiError("FIXED_YIELD_DENOMINATION_ASSET_INVALID", {
      message: `${denominationAsset} is neither a token nor a registered external token of the organisation's system`,
      details: { denominationAsset },
    });
  }
  const factory = await systemAddonFactory(chain.ledger, system, TYPE_NAME);
  if (!factory) {
    throw new ApiError("CONFLICT", { message: `The system ${system} has no ${TYPE_NAME} addon` });
  }
  const startDate = seconds(input.startDate);
  return {
    // The start must still be ahead of the chain's clock (the contract refuses it otherwise).
    precheck: async () => {
      if (startDate <= (await chainNow(chain.client))) {
        throw badRequest("startDate must be in the future", [{ path: "startDate", message: "must be in the future" }]);
      }
    },
    kind: "fixedYieldSchedule.create",
    to: factory,
    data: encodeFunctionData({
      abi: FixedYieldScheduleFactoryAbi,
      functionName: "create",
      args: [tokenAddress, BigInt(input.rateBps), input.interval, startDate, seconds(input.endDate), denominationAsset],
    }),
  };
}

const scheduleCall = (schedule: string, data: ReturnType<typeof encodeFunctionData>, kind: string) => ({
  kind,
  to: getAddress(schedule),
  data,
});

export async function topUpWrite(
  chain: RequestChain,
  signer: Address,
  address: string,
  amount: bigint,
): Promise<SystemWrite> {
  const row = await findSchedule(chain, address);
  return {
    precheck: () =>
      assertErc20Funds(chain.client, {
        asset: getAddress(row.denominationAsset),
        owner: signer,
        spender: getAddress(row.id),
        amount,
      }),
    ...scheduleCall(
      row.id,
      encodeFunctionData({ abi: FixedYieldScheduleAbi, functionName: "topUp", args: [amount] }),
      "fixedYieldSchedule.topUp",
    ),
  };
}

export async function withdrawalWrite(
  chain: RequestChain,
  signer: Address,
  address: string,
  input: { to?: string; amount: bigint },
): Promise<SystemWrite> {
  const row = await findSchedule(chain, address);
  if (indexedHex(signer) !== row.owner) {
    throw new ApiError("FIXED_YIELD_NOT_OWNER", {
      message: `The signing wallet ${signer} is not the schedule's owner`,
      details: { account: signer, owner: getAddress(row.owner) },
    });
  }
  return {
    precheck: async () => {
      const available = await balanceOf(chain, row.denominationAsset, row.id);
      if (available < input.amount) {
        throw new ApiError("FIXED_YIELD_SCHEDULE_UNDERFUNDED", {
          message: `The schedule holds ${available}; ${input.amount} was asked for`,
          details: { requested: input.amount.toString(), available: available.toString() },
        });
      }
    },
    ...scheduleCall(
      row.id,
      encodeFunctionData({
        abi: FixedYieldScheduleAbi,
        functionName: "withdraw",
        args: [getAddress(input.to ?? signer), input.amount],
      }),
      "fixedYieldSchedule.withdraw",
    ),
  };
}

export async function claimWrite(chain: RequestChain, signer: Address, address: string): Promise<SystemWrite> {
  const row = await findSchedule(chain, address);
  return {
    // The signing wallet claims for itself: something must be due, and the schedule must hold it.
    precheck: async () => {
      const [due, available] = await Promise.all([
        claimableNow(chain, row.id, signer),
        balanceOf(chain, row.denominationAsset, row.id),
      ]);
      if (due === 0n) {
        throw new ApiError("FIXED_YIELD_NOTHING_DUE", {
          message: `Nothing is due to ${signer}: every completed period is claimed, or it held no tokens at their ends`,
          details: { holder: signer },
        });
      }
      if (available < due) {
        throw new ApiError("FIXED_YIELD_SCHEDULE_UNDERFUNDED", {
          message: `The schedule holds ${available} and ${due} is due to ${signer}: it must be topped up first`,
          details: { holder: signer, due: due.toString(), available: available.toString() },
        });
      }
    },
    ...scheduleCall(
      row.id,
      encodeFunctionData({ abi: FixedYieldScheduleAbi, functionName: "claim" }),
      "fixedYieldSchedule.claim",
    ),
  };
}
