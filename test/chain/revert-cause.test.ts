// Why a mined write reverted, from the chain itself: out of gas (its whole limit used), or the contract's error from
// the node's trace of the transaction, decoded as an estimate's revert is.
import { encodeFunctionData, parseAbi } from "viem";
import { anvil } from "viem/chains";
import { describe, expect, it } from "vitest";
import { createChainService } from "../../host/chain/chain-service.ts";
import { revertCause } from "../../host/worker/revert-cause.ts";
import { ephemeralChain } from "../support/ephemeral-chain.ts";
import { deployTestContract } from "../support/test-contract.ts";

// TokenPaused() is one of the platform's own errors (contracts/token/Token.sol).
const SOURCE = `pragma solidity ^0.8.0;
contract Refuses {
  error TokenPaused();
  uint256 public spins;
  function spin() external { while (true) spins += 1; }
  function refuse() external pure { revert TokenPaused(); }
  function plain() external pure { revert(); }
}`;

describe("revertCause", () => {
  const local = ephemeralChain("revert-cause");
  const abi = parseAbi(["function spin()", "function refuse()", "function plain()"]);

  it("tells out of gas, a platform contract's error, and nothing for a success or a revert without data", async () => {
    const {
      address: to,
      receipt: deployed,
      client,
      wallet,
    } = await deployTestContract(local.node.rpcUrl, "Refuses", SOURCE);
    const chain = createChainService(local.node.rpcUrl, anvil.id);
    // Sent with a gas limit of their own: an estimate would refuse them before they are mined.
    const mined = async (functionName: "spin" | "refuse" | "plain") =>
      client.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to, data: encodeFunctionData({ abi, functionName }), gas: 100_000n }),
      });

    expect(await revertCause(chain, await mined("spin"))).toEqual({
      subStatus: "OUT_OF_GAS",
      errorMessage: "The transaction ran out of gas on chain: it used all of its 100000 gas.",
    });
    expect(await revertCause(chain, await mined("refuse"))).toMatchObject({
      subStatus: "REVERTED",
      errorMessage: "The transaction reverted on chain: TokenPaused()",
      contractError: { id: "TokenPaused" },
    });
    expect(await revertCause(chain, await mined("plain"))).toBeUndefined();
    expect(await revertCause(chain, deployed)).toBeUndefined();
  });
});
