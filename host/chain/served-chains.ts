// The chains this platform serves: each one's node (viem clients) and the platform's contracts deployed there. The
// first is the primary chain: new organisations' default network.
import type { Address } from "viem";
import { type ChainService, createChainService } from "./chain-service.ts";

/** The platform's contracts on one chain (its deployment manifest). */
export interface ChainDeployment {
  systemFactory: Address;
  /** The ERC-4337 EntryPoint v0.8 (absent only with a given manifest that names none on a chain without it). */
  entryPoint?: Address;
  /** The ERC-4337 EntryPoint v0.7, which the bundler serves too (absent likewise). */
  entryPointV07?: Address;
  /** The bundler's simulations of each EntryPoint, run through its delegateAndRevert (absent with an older or given
   * manifest: the bundler then sends the simulations' code as a state override). */
  entryPointSimulations?: Address;
  entryPointV07Simulations?: Address;
  /** The smart wallets' account factory for that EntryPoint. */
  smartAccountFactory?: Address;
  /** The organisations' paymasters' factory for that EntryPoint. */
  paymasterFactory?: Address;
}

export interface ServedChain extends ChainService {
  deployment: ChainDeployment;
}

/** How a process reaches one served chain (passed from the supervisor to the host and worker processes). */
export interface ServedChainParts extends ChainDeployment {
  chainId: number;
  rpcUrl: string;
}

export interface ServedChains {
  /** Every served chain's id, the primary first. */
  ids: number[];
  primary: ServedChain;
  has(chainId: number): boolean;
  /** A served chain; throws for one this platform does not serve (callers check `has` or validated the id). */
  get(chainId: number): ServedChain;
  all(): ServedChain[];
}

export function createServedChains(parts: ServedChainParts[]): ServedChains {
  if (parts.length === 0) throw new Error("no chain to serve");
  const byId = new Map<number, ServedChain>();
  for (const { chainId, rpcUrl, ...deployment } of parts) {
    if (byId.has(chainId)) throw new Error(`chain ${chainId} is configured twice`);
    byId.set(chainId, { ...createChainService(rpcUrl, chainId), deployment });
  }
  const all = [...byId.values()];
  return {
    ids: [...byId.keys()],
    primary: all[0]!,
    has: (chainId) => byId.has(chainId),
    get(chainId) {
      const chain = byId.get(chainId);
      if (!chain) throw new Error(`chain ${chainId} is not served by this platform`);
      return chain;
    },
    all: () => all,
  };
}
