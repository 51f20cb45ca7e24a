// The EntryPoints the bundler serves on a chain (the deployment's v0.8 and v0.7) and what differs between them: the
// simulations' code run at the EntryPoint's address, the unused-gas penalty, and the userOpHash rule (user-operation.ts).
import { type Address, getAddress } from "viem";
import { type Artifact, accountAbstractionArtifact, type EntryPointVersion } from "../../host/chain/entry-point.ts";
import type { ChainDeployment } from "../../host/chain/served-chains.ts";

export type { EntryPointVersion };

/** One EntryPoint the bundler serves: its address (checksummed), release, and the platform's simulations of it
 * (simulation-call.ts) where the chain has them. */
export interface ServedEntryPoint {
  address: Address;
  version: EntryPointVersion;
  simulations?: Address;
}

/** The chain's EntryPoints, v0.8 first (the one the platform's own smart wallets use). */
export function servedEntryPoints(deployment: ChainDeployment): ServedEntryPoint[] {
  const served: ServedEntryPoint[] = [];
  const simulations = (address?: Address) => (address ? { simulations: getAddress(address) } : {});
  if (deployment.entryPoint)
    served.push({
      address: getAddress(deployment.entryPoint),
      version: "0.8",
      ...simulations(deployment.entryPointSimulations),
    });
  if (deployment.entryPointV07)
    served.push({
      address: getAddress(deployment.entryPointV07),
      version: "0.7",
      ...simulations(deployment.entryPointV07Simulations),
    });
  return served;
}

/** The served EntryPoint at `address` (any case), if it is one. */
export function servedEntryPointAt(deployment: ChainDeployment, address: string): ServedEntryPoint | undefined {
  return servedEntryPoints(deployment).find((entryPoint) => entryPoint.address.toLowerCase() === address.toLowerCase());
}

const simulations = new Map<EntryPointVersion, Artifact>();
/** The release's EntryPointSimulations: its ABI (the platform's deployed simulations share it), and its code, put at
 * the EntryPoint's address in eth_call where the chain has no deployed simulations (simulation-call.ts). */
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
