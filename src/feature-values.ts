// A feature's parameters as chain facts: the ABI-encoded params decoded by name, raw (the API formats them).
import type { Hex } from "viem";
import { decodeFeatureValues, type FeatureValues, isFeatureId } from "../domain/features/feature-params.ts";

export function featureValues(featureId: string, params: Hex): FeatureValues {
  if (!isFeatureId(featureId)) return {};
  try {
    return decodeFeatureValues(featureId, params);
  } catch {
    return {}; // parameters the contract accepted but this version cannot read (the raw params are kept)
  }
}
