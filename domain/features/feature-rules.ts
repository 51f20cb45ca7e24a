// The features' dependency and incompatibility rules, as the feature contracts declare them on chain
// (requiredFeatures / incompatibleFeatures) and the catalogue mirrors them: the API refuses a violation before
// sending anything.
import { type FeatureId, featureEntry } from "./catalogue.ts";

export type FeatureRuleViolation =
  | { rule: "requires"; featureId: FeatureId; requiredFeatureId: FeatureId }
  | { rule: "excludes"; featureId: FeatureId; incompatibleFeatureId: FeatureId };

/** The first rule a set of features breaks, in attachment order; undefined when all hold. */
export function checkFeatureRules(features: readonly FeatureId[]): FeatureRuleViolation | undefined {
  const present = new Set(features);
  for (const featureId of features) {
    for (const requiredFeatureId of requiredFeaturesOf(featureId)) {
      if (!present.has(requiredFeatureId)) return { rule: "requires", featureId, requiredFeatureId };
    }
    for (const incompatibleFeatureId of incompatibleFeaturesOf(featureId)) {
      if (present.has(incompatibleFeatureId)) return { rule: "excludes", featureId, incompatibleFeatureId };
    }
  }
  return undefined;
}

export function requiredFeaturesOf(id: FeatureId): FeatureId[] {
  return [...(featureEntry(id).requires ?? [])];
}

export function incompatibleFeaturesOf(id: FeatureId): FeatureId[] {
  return [...(featureEntry(id).excludes ?? [])];
}
