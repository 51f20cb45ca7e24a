// A test's own one-file Solidity contract: compiled with the npm solc and deployed by anvil's funded account, with
// the clients the test goes on with.
import solc from "solc";
import { createPublicClient, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { ANVIL_FUNDER_KEY } from "../../scripts/infra/anvil.ts";

function compile(name: string, source: string): Hex {
  const input = { language: "Solidity", sources: { [`${name}.sol`]: { content: source } } };
  const settings = { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } };
  const output = JSON.parse(solc.compile(JSON.stringify({ ...input, settings })));
  return `0x${output.contracts[`${name}.sol`][name].evm.bytecode.object}`;
}

/** Deploys contract `name` of `source` on the node at `rpcUrl`. */
export async function deployTestContract(rpcUrl: string, name: string, source: string) {
  const account = privateKeyToAccount(ANVIL_FUNDER_KEY);
  const transport = http(rpcUrl);
  const client = createPublicClient({ chain: anvil, transport });
  const wallet = createWalletClient({ account, chain: anvil, transport });
  const receipt = await client.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: [], bytecode: compile(name, source) }),
  });
  return { address: receipt.contractAddress!, receipt, account, client, wallet };
}
