import { encodeFunctionData, parseAbi } from "viem";
import { describe, expect, it } from "vitest";
import { estimateGasForNextBlock, nextBlockTimestamp } from "../../host/chain/estimate-gas.ts";
import { ephemeralChain } from "../support/ephemeral-chain.ts";
import { deployTestContract } from "../support/test-contract.ts";

// A write keyed by block timestamp, as OpenZeppelin's Checkpoints are: refused within the block of the last one.
const SOURCE = `pragma solidity ^0.8.0;
contract Stamped { uint256 public last; function stamp() external { require(block.timestamp > last, "same block time"); last = block.timestamp; } }`;

describe("estimateGasForNextBlock", () => {
  const local = ephemeralChain("estimate-gas");

  it("estimates a write as of the next block, not the latest block's timestamp", async () => {
    const { address: to, account, client, wallet } = await deployTestContract(local.node.rpcUrl, "Stamped", SOURCE);
    const data = encodeFunctionData({ abi: parseAbi(["function stamp()"]), functionName: "stamp" });
    const ahead = Number((await client.getBlock()).timestamp) + 100;
    await client.request({ method: "evm_setNextBlockTimestamp" as never, params: [ahead] as never });
    await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, data }) });
    // At the latest block's own second the write reverts. (anvil's untagged estimate runs at its clock, which is
    // that second only until the next one ticks: asked by tag, the precondition holds however loaded the machine.)
    await expect(client.estimateGas({ account, to, data, blockTag: "latest" })).rejects.toThrow(/same block time/);
    const gas = await estimateGasForNextBlock(
      client,
      { account, to, data, value: 0n },
      await nextBlockTimestamp(client),
    );
    expect(gas).toBeGreaterThan(21_000n); // the write as a later block runs it: a new timestamp, a new stamp
  });
});
