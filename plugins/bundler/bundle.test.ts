import { encodeAbiParameters, encodeEventTopics, type Hex, keccak256, type TransactionReceipt } from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { describe, expect, it } from "vitest";
import type { TransactionRequestRow } from "../../host/db/platform-types.ts";
import { handleOpsKind } from "./bundle.ts";

const ENTRY_POINT = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
const SENDER = "0x00000000000000000000000000000000000000aa";
const OP_HASH = keccak256("0x01");

/** A UserOperationEvent of the EntryPoint, as a log of the mined bundle. */
function userOperationLog(address: string) {
  return {
    address,
    topics: encodeEventTopics({
      abi: entryPoint08Abi,
      eventName: "UserOperationEvent",
      args: { userOpHash: OP_HASH, sender: SENDER, paymaster: `0x${"00".repeat(20)}` },
    }),
    data: encodeAbiParameters(
      [{ type: "uint256" }, { type: "bool" }, { type: "uint256" }, { type: "uint256" }],
      [0n, true, 1000n, 500n],
    ),
  };
}

describe("bundler.handle-ops result", () => {
  it("reads the operations from the receipt that was mined, also a version a fee bump replaced", () => {
    // The host's confirmation completes a write with the receipt of whichever signed version was mined
    // (host/worker/receipts.ts receiptOfReplaced), and records that receipt's hash as the request's before
    // onCompleted marks the operations included (complete-request.ts): the operations come from that receipt alone.
    const replaced = keccak256("0xaa");
    const current = keccak256("0xbb");
    const request = {
      toAddress: ENTRY_POINT.toLowerCase(),
      transactionHash: current,
      replacedHashes: [replaced],
    } as unknown as TransactionRequestRow;
    const receipt = {
      transactionHash: replaced,
      logs: [userOperationLog(ENTRY_POINT), userOperationLog(SENDER)], // another contract's log is not counted
    } as unknown as TransactionReceipt;
    expect(handleOpsKind.result?.(receipt, request)).toEqual({
      userOperations: [{ userOpHash: OP_HASH as Hex, success: true }],
    });
  });
});
