// The fees of every transaction speed on a chain, from its recent blocks (transaction-speed.ts).
import type { PublicClient } from "viem";
import {
  FEE_HISTORY_BLOCKS,
  feesFromHistory,
  SPEED_PERCENTILES,
  type SpeedFees,
  TRANSACTION_SPEEDS,
  type TransactionSpeed,
} from "./transaction-speed.ts";

export async function speedFees(
  client: Pick<PublicClient, "getFeeHistory">,
): Promise<Record<TransactionSpeed, SpeedFees>> {
  const history = await client.getFeeHistory({
    blockCount: FEE_HISTORY_BLOCKS,
    blockTag: "latest",
    rewardPercentiles: TRANSACTION_SPEEDS.map((speed) => SPEED_PERCENTILES[speed]),
  });
  return feesFromHistory(history);
}
