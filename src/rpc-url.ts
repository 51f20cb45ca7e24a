// The chain's JSON-RPC URL in the indexer's process (the supervisor sets PONDER_RPC_URL), for the config and for the
// receipts the activity handlers read themselves (src/receipts.ts).
export const ponderRpcUrl = (): string => process.env.PONDER_RPC_URL ?? "http://127.0.0.1:8545";
