// Why a mined write reverted, from the chain itself: out of gas (its whole limit used), or the contract's error from
// the node's trace of the transaction, decoded as an estimate's revert is.
import solc from "solc";
import { createPublicClient, createWalletClient, encodeFunctionData, type Hex, http, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { describe, expect, it } from "vitest";
import { createChainService } from "../../host/chain/chain-service.ts";
import { revertCause } from "../../host/worker/revert-cause.ts";
import { ANVIL_FUNDER_KEY } from "../../scripts/infra/anvil.ts";
import { ephemeralChain } from "../support/ephemeral-chain.ts";

// TokenPaused() is one of the platform's own errors (contracts/token/Token.sol).
const SOURCE = `pragma solidity ^0.8.0;
contract Refuses {
  error TokenPaused();
  uint256 public spins;
  function spin() external { while (true) spins += 1; }
  function refuse() external pure { revert TokenPaused(); }
  function plain() external pure { revert(); }
}`;

function compile(): Hex {
  const input = { language: "Solidity", sources: { "Refuses.sol": { content: SOURCE } } };
  const settings = { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } };
  const output = JSON.parse(solc.compile(JSON.stringify({ ...input, settings })));
  return `0x${output.contracts["Refuses.sol"].Refuses.evm.bytecode.object}`;
}

describe("revertCause", () => {
  const local = ephemeralChain("revert-cause");
  const abi = parseAbi(["function spin()", "function refuse()", "function plain()"]);

  it("tells out of gas, a platform contract's error, and nothing for a success or a revert without data", async () => {
    const account = privateKeyToAccount(ANVIL_FUNDER_KEY);
    const transport = http(local.node.rpcUrl);
    const client = createPublicClient({ chain: anvil, transport });
    const wallet = createWalletClient({ account, chain: anvil, transport });
    const deployed = await client.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: [], bytecode: compile() }),
    });
    const to = deployed.contractAddress!;
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
