// A feature's parameters in the API's JSON shape, formatted from the chain's values the index holds (dates as ISO
// 8601, amounts in the decimals of the asset they are paid in).
import { type Address, getAddress } from "viem";
import {
  amountAssets,
  type FeatureId,
  formatFeatureParams,
  isFeatureId,
} from "../../domain/features/feature-params.ts";
import type { ChainService } from "../../host/chain/chain-service.ts";
import { isChainUnavailable, unlessChainUnavailable } from "../../host/chain/chain-unavailable.ts";
import { isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";
import { readAssetDecimals } from "./asset-decimals.ts";

type FeatureRow = LedgerTables["tokenFeature"];

/** The feature's `config`; {} for parameters this version cannot read. */
export async function featureConfig(
  chain: ChainService,
  row: FeatureRow,
  tokenDecimals: number,
): Promise<Record<string, unknown>> {
  if (!isFeatureId(row.featureId)) return {};
  const id = row.featureId;
  try {
    const decimals = new Map<string, number>();
    for (const asset of amountAssets(id, row.decodedParams)) {
      if (asset === "token" || decimals.has(asset)) continue;
      decimals.set(asset, await readAssetDecimals(chain, asset).catch(unlessChainUnavailable(0))); // not an ERC-20: raw units
    }
    return formatFeatureParams(id, row.decodedParams, (asset) =>
      asset === "token" ? tokenDecimals : (decimals.get(asset) ?? 0),
    );
  } catch (error) {
    if (isChainUnavailable(error)) throw error; // 503, not a feature shown without its parameters
    return {};
  }
}

/** A token's features as the API shows them, in the order given. */
export function toFeatures(chain: ChainService, token: LedgerTables["token"], rows: FeatureRow[]) {
  return Promise.all(
    rows.map(async (row) => ({
      id: row.featureId as FeatureId,
      address: getAddress(row.id) as Address,
      config: await featureConfig(chain, row, token.decimals),
      attachedAt: isoFromSeconds(row.attachedAt),
      updatedAt: isoFromSeconds(row.updatedAt),
    })),
  );
}

export type ShownFeature = Awaited<ReturnType<typeof toFeatures>>[number];
