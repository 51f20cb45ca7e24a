// A feature's parameters in the API's JSON shape, decoded inside the index (amounts need asset decimals).
import type { Context } from "ponder:registry";
import { type Address, erc20Abi, type Hex } from "viem";
import {
  amountAssets,
  decodeFeatureRaw,
  type FeatureId,
  formatFeatureParams,
  isFeatureId,
} from "../host/features/feature-params.ts";

async function decimalsOf(context: Context, asset: Address): Promise<number> {
  try {
    return await context.client.readContract({ abi: erc20Abi, address: asset, functionName: "decimals" });
  } catch {
    return 0; // not an ERC-20: amounts stay in raw units
  }
}

export async function featureConfig(
  context: Context,
  featureId: string,
  params: Hex,
  tokenDecimals: number,
): Promise<Record<string, unknown>> {
  if (!isFeatureId(featureId)) return {};
  const id: FeatureId = featureId;
  try {
    const raw = decodeFeatureRaw(id, params);
    const assets = amountAssets(id, raw);
    const decimals = new Map<string, number>([["token", tokenDecimals]]);
    for (const asset of assets) {
      if (asset !== "token" && !decimals.has(asset)) decimals.set(asset, await decimalsOf(context, asset));
    }
    return formatFeatureParams(id, raw, (asset) => decimals.get(asset) ?? 0);
  } catch {
    return {}; // parameters the contract accepted but this version cannot read
  }
}
