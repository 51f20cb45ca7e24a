// A token.transfer.final delivery as the platform sends it: the SDK's tests' sample.
import type { Webhook } from "./index.ts";

export const sampleTransfer = {
  evt_id: "evt_0193c1a2-7b3c-7def-8abc-0123456789ab",
  type: "token.transfer.final",
  version: 1,
  lifecycle_state: "final",
  request: { idempotency_key: "k-1" },
  related: { idxr_token: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
  payload: {
    tokenAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    chainId: 31337,
    from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    amount: "150050",
    transactionHash: `0x${"ab".repeat(32)}`,
    blockNumber: 42,
    logIndex: 3,
  },
} satisfies Webhook.TokenTransferFinalV1;
