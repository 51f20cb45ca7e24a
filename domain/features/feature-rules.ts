// The features' dependency and incompatibility rules, as the feature contracts declare them on chain
// (requiredFeatures / incompatibleFeatures): the API refuses a violation before sending anything.
import type { FeatureId } from "./feature-params.ts";

const REQUIRES: Partial<Record<FeatureId, FeatureId[]>> = {
  "fixed-treasury-yield": ["historical-balances"],
};
const EXCLUDES: Partial<Record<FeatureId, FeatureId[]>> = {
  "transaction-fee": ["transaction-fee-accounting"],
  "transaction-fee-accounting": ["transaction-fee"],
};

export type FeatureRuleViolation =
  | { rule: "requires"; featureId: FeatureId; requiredFeatureId: FeatureId }
  | { rule: "excludes"; featureId: FeatureId; incompatibleFeatureId: FeatureId };

/** The first rule a set of features breaks, in attachment order; undefined when all hold. */
export function checkFeatureRules(features: readonly FeatureId[]): FeatureRuleViolation | undefined {
  const present = new Set(features);
  for (const featureId of features) {
    for (const requiredFeatureId of REQUIRES[featureId] ?? []) {
      if (!present.has(requiredFeatureId)) return { rule: "requires", featureId, requiredFeatureId };
    }
    for (const incompatibleFeatureId of EXCLUDES[featureId] ?? []) {
      if (present.has(incompatibleFeatureId)) return { rule: "excludes", featureId, incompatibleFeatureId };
    }
  }
  return undefined;
}

export function requiredFeaturesOf(id: FeatureId): FeatureId[] {
  return REQUIRES[id] ?? [];
}

export function incompatibleFeaturesOf(id: FeatureId): FeatureId[] {
  return EXCLUDES[id] ?? [];
}
