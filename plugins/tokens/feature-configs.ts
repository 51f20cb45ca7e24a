// Token creation's feature plan: the template's required features plus the configured ones, each with the
// template's defaults overlaid by the request, validated, rule-checked and ABI-encoded for the factory.

import { type Address, getAddress, type Hex } from "viem";
import {
  amountAssets,
  type DecimalsOf,
  encodeFeatureParams,
  type FeatureId,
  featureConfigSchema,
} from "../../domain/features/feature-params.ts";
import { checkFeatureRules } from "../../domain/features/feature-rules.ts";
import type { ChainService } from "../../host/chain/chain-service.ts";
import { ApiError, badRequest } from "../../host/errors/api-error.ts";
import { zodIssues } from "../../host/http/validation.ts";
import { readAssetDecimals } from "./asset-decimals.ts";
import type { TokenTemplate } from "./templates.ts";

export interface PlannedFeature {
  featureId: FeatureId;
  config: Record<string, unknown>;
  params: Hex;
}

/** Features in attachment order: the template's required ones, then the configured ones. */
function wantedFeatures(template: TokenTemplate, configured: Record<string, unknown>): FeatureId[] {
  const wanted: FeatureId[] = [...template.requiredFeatures];
  for (const id of Object.keys(configured) as FeatureId[]) if (!wanted.includes(id)) wanted.push(id);
  return wanted;
}

function mergedConfigs(template: TokenTemplate, features: FeatureId[], configured: Record<string, unknown>) {
  const issues: { path: string; message: string }[] = [];
  const configs = new Map<FeatureId, Record<string, unknown>>();
  for (const id of features) {
    if (!template.allowedFeatures.includes(id)) {
      issues.push({ path: `featureConfigs.${id}`, message: `feature not allowed by the template ${template.id}` });
      continue;
    }
    const merged = { ...(template.defaults.featureConfigs[id] ?? {}), ...((configured[id] as object) ?? {}) };
    const parsed = featureConfigSchema(id).safeParse(merged);
    if (!parsed.success) {
      issues.push(...zodIssues(parsed.error, ["featureConfigs", id]));
      continue;
    }
    configs.set(id, parsed.data as Record<string, unknown>);
  }
  if (issues.length)
    throw badRequest(`Invalid feature configuration at ${issues[0].path}: ${issues[0].message}`, issues);
  return configs;
}

/** Throws the 422 that names the feature breaking a dependency or incompatibility rule. */
export function enforceRules(features: FeatureId[]) {
  const violation = checkFeatureRules(features);
  if (!violation) return;
  if (violation.rule === "requires") {
    throw new ApiError("TOKEN_FEATURE_DEPENDENCY_MISSING", {
      message: `The feature ${violation.featureId} requires the feature ${violation.requiredFeatureId}`,
      details: { featureId: violation.featureId, requiredFeatureId: violation.requiredFeatureId },
    });
  }
  throw new ApiError("TOKEN_FEATURES_INCOMPATIBLE", {
    message: `The feature ${violation.featureId} cannot be combined with ${violation.incompatibleFeatureId}`,
    details: { featureId: violation.featureId, incompatibleFeatureId: violation.incompatibleFeatureId },
  });
}

/**
 * The decimals lookup encoding needs: the token's own, and those of every asset an amount parameter is written
 * in (read from the chain).
 */
export async function assetDecimals(
  chain: ChainService,
  configs: Map<FeatureId, Record<string, unknown>>,
  tokenDecimals: number,
): Promise<DecimalsOf> {
  const assets = new Set<Address>();
  for (const [id, config] of configs) {
    for (const asset of amountAssets(id, config)) if (asset !== "token") assets.add(asset);
  }
  const decimals = new Map<string, number>();
  for (const asset of assets) {
    try {
      decimals.set(asset, await readAssetDecimals(chain, asset));
    } catch {
      throw new ApiError("TOKEN_INTERFACE_NOT_SUPPORTED", {
        message: `The asset ${asset} does not answer ERC-20 decimals()`,
        details: { address: asset },
      });
    }
  }
  return (asset) => (asset === "token" ? tokenDecimals : (decimals.get(getAddress(asset)) ?? 18));
}

/** Validates and encodes the features of a new token; throws the API error that names the feature at fault. */
export async function planFeatures(input: {
  chain: ChainService;
  template: TokenTemplate;
  featureConfigs: Record<string, unknown>;
  tokenDecimals: number;
}): Promise<PlannedFeature[]> {
  const { template, featureConfigs, tokenDecimals } = input;
  const features = wantedFeatures(template, featureConfigs);
  const configs = mergedConfigs(template, features, featureConfigs);
  enforceRules(features);
  const decimalsOf = await assetDecimals(input.chain, configs, tokenDecimals);
  return features.map((featureId) => {
    const config = configs.get(featureId) ?? {};
    return { featureId, config, params: encodeFeatureParams(featureId, config, decimalsOf) };
  });
}
