import { encodeFunctionData } from "viem";
import { describe, expect, it } from "vitest";
import { TokenAbi } from "../../abis/Token.ts";
import { pendingRows, type SignedWrite } from "../../host/events/pending-events.ts";
import { TOKEN_WEBHOOK_EVENTS } from "./webhook-events.ts";

const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const SIGNER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ALICE = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const HASH = `0x${"ab".repeat(32)}`;
const events = new Map(Object.entries(TOKEN_WEBHOOK_EVENTS));
const write = (kind: string, data: string): SignedWrite => ({
  requestId: "req-1",
  organizationId: "org-1",
  idempotencyKey: "key-1",
  chainId: 31337,
  kind,
  fromAddress: SIGNER.toLowerCase(),
  toAddress: TOKEN.toLowerCase(),
  data,
  transactionHash: HASH,
});

describe("the pending events of a broadcast write", () => {
  it("a mint tells one pending issuance per recipient, with the transaction hash, once per write", () => {
    const data = encodeFunctionData({
      abi: TokenAbi,
      functionName: "batchMint",
      args: [
        [ALICE, SIGNER],
        [5n, 7n],
      ],
    });
    const rows = pendingRows(events, [write("token.mint", data)]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      type: "asset.issuance.provisional",
      lifecycleState: "pending",
      requestId: "req-1",
      idempotencyKey: "key-1",
      chainId: 31337,
      transactionHash: HASH,
      dedupeKey: "pending:asset.issuance.provisional:req-1:0",
    });
    expect(JSON.parse(rows[1].payload)).toEqual({
      assetAddress: TOKEN,
      chainId: 31337,
      issuer: SIGNER,
      quantity: "7",
      transactionHash: HASH,
    });
  });

  it("nothing for a kind no type predicts, or a call it cannot read", () => {
    const transfer = encodeFunctionData({ abi: TokenAbi, functionName: "transfer", args: [ALICE, 1n] });
    expect(pendingRows(events, [write("token.transfer", transfer)])).toEqual([]);
    expect(pendingRows(events, [write("token.mint", "0xdeadbeef")])).toEqual([]);
  });
});
