// A bare Ponder app for the indexing benchmark (bench/indexing-throughput.ts): only the ERC-20 Transfer of one token,
// with the platform app's chain settings. DEPLOYMENT_MANIFEST names the bench's manifest {chainId, token, startBlock}.
import { readFileSync } from "node:fs";
import { createConfig } from "ponder";
import { erc20Abi } from "viem";

const bench: { chainId: number; token: `0x${string}`; startBlock: number } = JSON.parse(
  readFileSync(process.env.DEPLOYMENT_MANIFEST!, "utf8"),
);
const chain = `chain${bench.chainId}`;

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL },
  chains: {
    [chain]: {
      id: bench.chainId,
      rpc: process.env.PONDER_RPC_URL ?? "http://127.0.0.1:8545",
      pollingInterval: Number(process.env.PONDER_POLLING_INTERVAL_MS ?? 250),
      disableCache: bench.chainId === 31337,
    },
  },
  contracts: { Erc20: { abi: erc20Abi, chain, address: bench.token, startBlock: bench.startBlock } },
});
