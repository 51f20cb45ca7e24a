// A bare Ponder app for the indexing benchmark (bench/indexing-throughput.ts): only the ERC-20 Transfer of one token,
// with the platform app's chain settings. PONDER_CHAINS names the bench's manifest {chainId, token, startBlock}.
import { createConfig } from "ponder";
import { erc20Abi } from "viem";
import type { IndexChainSource } from "../../src/index-chains.ts";

const [source]: IndexChainSource[] = JSON.parse(process.env.PONDER_CHAINS!);
const bench = source.deployment as unknown as { chainId: number; token: `0x${string}`; startBlock: number };
const chain = `chain${bench.chainId}`;

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL },
  chains: {
    [chain]: {
      id: bench.chainId,
      // As src/index-chains.ts's ponderRpc gives it (this app runs from a copy: it imports no code of the repository).
      rpc: Array.from({ length: source.rpcLanes ?? 1 }, () => source.rpcUrl),
      pollingInterval: Number(process.env.PONDER_POLLING_INTERVAL_MS ?? 250),
      disableCache: source.disableCache,
    },
  },
  contracts: { Erc20: { abi: erc20Abi, chain, address: bench.token, startBlock: bench.startBlock } },
});
