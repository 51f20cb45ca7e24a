// viem clients for the chains the platform serves.
import { type Chain, createPublicClient, defineChain, http, type PublicClient } from "viem";

export interface ChainService {
  chainId: number;
  chain: Chain;
  client: PublicClient;
}

export function createChainService(rpcUrl: string, chainId: number): ChainService {
  const chain = defineChain({
    id: chainId,
    name: `chain${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({
    chain,
    // Concurrent calls (a batch's estimates, a confirmation run's receipts) share one HTTP request.
    transport: http(rpcUrl, { timeout: 10_000, batch: { batchSize: 200, wait: 0 } }),
    pollingInterval: 100,
  });
  return { chainId, chain, client: client as PublicClient };
}
