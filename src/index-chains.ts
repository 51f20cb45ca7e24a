// The chains the indexer's process indexes, as the supervisor passes them (PONDER_CHAINS: a JSON list of each chain's
// deployment, RPC URL and optional WebSocket URL), for the config and for the receipts the activity handlers read
// themselves (src/receipts.ts).

/** What `PONDER_CHAINS` lists per chain. */
export interface IndexChainSource {
  /** The chain's deployment manifest (scripts/contracts/deploy.ts), or at least the part the index reads. */
  deployment: IndexedDeployment;
  rpcUrl: string;
  /** New heads over WebSocket; absent: polled. */
  wsUrl?: string;
  /** A local development chain: reset far more often than a public one, its blocks are not worth caching. */
  disableCache?: boolean;
  /** How many times the URL is given to Ponder (see ponderRpc); absent: once. */
  rpcLanes?: number;
}

/**
 * Lanes of a node of one's own (an embedded or local development chain). Ponder paces each RPC URL it is given from
 * 20 requests a second, rising slowly (for metered providers); its realtime sync asks 2-3 requests a block, so a
 * burst of one-transaction blocks left the index tens of seconds behind the chain. Each lane is paced on its own.
 */
export const LOCAL_RPC_LANES = 8;

/** The `rpc` of a Ponder chain: the URL once, or once per lane (Ponder spreads its requests over the entries). */
export function ponderRpc(source: Pick<IndexChainSource, "rpcUrl" | "rpcLanes">): string | string[] {
  const lanes = source.rpcLanes ?? 1;
  return lanes > 1 ? Array.from({ length: lanes }, () => source.rpcUrl) : source.rpcUrl;
}

/** The part of a deployment manifest (scripts/contracts/deploy.ts) the index reads. */
export interface IndexedDeployment {
  chainId: number;
  systemFactory: `0x${string}`;
  /** ERC-4337 EntryPoints v0.8 and v0.7 and the smart wallets' factory: absent from older manifests. */
  entryPoint?: `0x${string}`;
  entryPointV07?: `0x${string}`;
  smartAccountFactory?: `0x${string}`;
  startBlock: number;
}

/** Without PONDER_CHAINS (type generation, a config check): one placeholder chain with nothing deployed. */
const PLACEHOLDER: IndexChainSource = {
  rpcUrl: "http://127.0.0.1:8545",
  disableCache: true,
  deployment: { chainId: 31337, systemFactory: "0x0000000000000000000000000000000000000000", startBlock: 0 },
};

/** The chains a PONDER_CHAINS value lists (src/indexer-env.ts reads it). */
export function indexedChains(ponderChains: string | undefined): IndexChainSource[] {
  if (!ponderChains) return [PLACEHOLDER];
  return JSON.parse(ponderChains) as IndexChainSource[];
}
