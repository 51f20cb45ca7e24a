// The EntryPoints the bundler serves on a chain (the deployment's v0.8 and v0.7) and what differs between them: the
// simulations' code run at the EntryPoint's address, the unused-gas penalty, and the userOpHash rule (user-operation.ts).
import { type Address, getAddress } from "viem";
import { type Artifact, accountAbstractionArtifact, type EntryPointVersion } from "../../host/chain/entry-point.ts";
import type { ChainDeployment } from "../../host/chain/served-chains.ts";

export type { EntryPointVersion };

/** One EntryPoint the bundler serves: its address (checksummed) and release. */
export interface ServedEntryPoint {
  address: Address;
  version: EntryPointVersion;
}

/** The chain's EntryPoints, v0.8 first (the one the platform's own smart wallets use). */
export function servedEntryPoints(deployment: ChainDeployment): ServedEntryPoint[] {
  const served: ServedEntryPoint[] = [];
  if (deployment.entryPoint) served.push({ address: getAddress(deployment.entryPoint), version: "0.8" });
  if (deployment.entryPointV07) served.push({ address: getAddress(deployment.entryPointV07), version: "0.7" });
  return served;
}

/** The served EntryPoint at `address` (any case), if it is one. */
export function servedEntryPointAt(deployment: ChainDeployment, address: string): ServedEntryPoint | undefined {
  return servedEntryPoints(deployment).find((entryPoint) => entryPoint.address.toLowerCase() === address.toLowerCase());
}

const simulations = new Map<EntryPointVersion, Artifact>();
/** The release's EntryPointSimulations (never deployed: its code is put at the EntryPoint's address in eth_call). */
export function simulationsOf(version: EntryPointVersion): Artifact {
  let artifact = simulations.get(version);
  if (!artifact) {
    artifact = accountAbstractionArtifact("EntryPointSimulations", version);
    simulations.set(version, artifact);
  }
  return artifact;
}

/**
 * The EntryPoint charges 10 % of the unused execution gas (callGasLimit + paymasterPostOpGasLimit - used): v0.8 only
 * when more than this is unused, v0.7 always.
 */
export const PENALTY_THRESHOLD: Record<EntryPointVersion, bigint> = { "0.8": 40_000n, "0.7": 0n };
