// The indexer's configuration loader, the one file of src/ that reads the environment. Ponder evaluates
// ponder.config.ts and the handlers in a process of its own, which the supervisor (scripts/infra/ponder.ts) starts
// with what the host's validated configuration decided, passed as environment variables: host/config.ts's loader does
// not run there, and src/ may not import host/ (domain/purity.test.ts). Ponder gives its handlers no way to receive
// values from ponder.config.ts but module state shared by evaluation order, so the process's environment is read here,
// for ponder.config.ts and src/receipts.ts alike (scripts/no-env-reads.test.ts allows this file and host/config.ts).
import { type IndexChainSource, indexedChains } from "./index-chains.ts";

export interface IndexerEnv {
  /** PONDER_CHAINS: each indexed chain's deployment and RPC URL. */
  chains: IndexChainSource[];
  /** DATABASE_URL: the PostgreSQL the index is written to. */
  databaseUrl: string | undefined;
  /** PONDER_POLLING_INTERVAL_MS: how often a chain without a WebSocket is polled (the host's default, 250). */
  pollingIntervalMs: number;
}

export function indexerEnv(env: NodeJS.ProcessEnv = process.env): IndexerEnv {
  return {
    chains: indexedChains(env.PONDER_CHAINS),
    databaseUrl: env.DATABASE_URL,
    pollingIntervalMs: Number(env.PONDER_POLLING_INTERVAL_MS ?? 250),
  };
}

let rpcUrls: Map<number, string> | undefined;

/** The RPC URL of an indexed chain, in the indexer's process. */
export function ponderRpcUrl(chainId: number): string {
  rpcUrls ??= new Map(indexerEnv().chains.map((c) => [c.deployment.chainId, c.rpcUrl]));
  const url = rpcUrls.get(chainId);
  if (!url) throw new Error(`chain ${chainId} is not indexed (PONDER_CHAINS)`);
  return url;
}
