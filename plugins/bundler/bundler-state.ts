// What the bundler keeps in memory between requests and runs, owned by its platform (host/platform-state.ts): the
// validation caches (code scans, clean validation paths, SenderCreators, trace clients, chain times), the coalesced
// wakes of bundling runs, and the batched mempool and receipt lookups.
import { platformState } from "../../host/platform-state.ts";
import type { ChainLoaders } from "./lookups.ts";
import { type ValidationCaches, validationCaches } from "./simulation.ts";

export interface BundlerState {
  validation: ValidationCaches;
  /** One wake per chain, organisation and mode (bundle-job.ts). */
  wakes: Map<string, () => Promise<string | null>>;
  /** Per chain: the mempool rows and bundle receipts asked for in one turn (lookups.ts). */
  loaders: Map<number, ChainLoaders>;
}

export const bundlerState = platformState(
  (): BundlerState => ({ validation: validationCaches(), wakes: new Map(), loaders: new Map() }),
);
