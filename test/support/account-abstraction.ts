// ERC-4337 for tests: a real EntryPoint v0.8 and SimpleAccountFactory (the package's own artifacts), a paymaster
// that sponsors everything (contracts/test/TestPaymaster.sol), and user operations a test bundler submits.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  type Abi,
  type Address,
  type Chain,
  concat,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  type LocalAccount,
  pad,
  parseEther,
  toHex,
} from "viem";
import { compileContracts } from "../../scripts/contracts/compile.ts";

const require = createRequire(import.meta.url);

function artifact(name: string): { abi: Abi; bytecode: Hex } {
  const path = require.resolve(`@account-abstraction/contracts/artifacts/${name}.json`);
  const { abi, bytecode } = JSON.parse(readFileSync(path, "utf8"));
  return { abi, bytecode };
}

const ENTRY_POINT = artifact("EntryPoint");
const ACCOUNT_FACTORY = artifact("SimpleAccountFactory");
const ACCOUNT = artifact("SimpleAccount");

/** Two 128-bit values in one bytes32 (accountGasLimits, gasFees, paymaster gas limits). */
const packed = (high: bigint, low: bigint) => concat([pad(toHex(high), { size: 16 }), pad(toHex(low), { size: 16 })]);

export interface AccountAbstraction {
  entryPoint: Address;
  paymaster: Address;
  /** The counterfactual address of `owner`'s SimpleAccount (salt 0). */
  accountOf(owner: Address): Promise<Address>;
  /**
   * Runs `account.execute(target, 0, data)` as one user operation (deploying the account on its first), submitted by
   * `bundler` through handleOps; sponsored by the paymaster, or paid from the account's own prefund. Its hash.
   */
  send(input: { owner: LocalAccount; target: Address; data: Hex; sponsored: boolean; bundler: LocalAccount }): Promise<{
    userOpHash: Hex;
    transactionHash: Hex;
  }>;
}

export async function deployAccountAbstraction(chain: Chain, deployer: LocalAccount): Promise<AccountAbstraction> {
  const client = createPublicClient({ chain, transport: http() });
  const wallet = createWalletClient({ account: deployer, chain, transport: http() });
  // One transaction at a time, each mined before the next: anvil wants a signer's nonces in order.
  async function deploy(abi: Abi, bytecode: Hex, args: unknown[] = []) {
    const hash = await wallet.deployContract({ abi, bytecode, args });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("deployment failed");
    return receipt.contractAddress;
  }
  async function mined(hash: Hex) {
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }

  const entryPoint = await deploy(ENTRY_POINT.abi, ENTRY_POINT.bytecode);
  const factory = await deploy(ACCOUNT_FACTORY.abi, ACCOUNT_FACTORY.bytecode, [entryPoint]);
  const { TestPaymaster } = compileContracts().contracts;
  const paymaster = await deploy(TestPaymaster.abi, TestPaymaster.bytecode, [entryPoint]);
  /** Ether the EntryPoint holds for `account` to pay gas with. */
  const depositFor = async (account: Address, ether: string) =>
    mined(
      await wallet.writeContract({
        abi: ENTRY_POINT.abi,
        address: entryPoint,
        functionName: "depositTo",
        args: [account],
        value: parseEther(ether),
      }),
    );
  await depositFor(paymaster, "10");

  const accountOf = (owner: Address) =>
    client.readContract({
      abi: ACCOUNT_FACTORY.abi,
      address: factory,
      functionName: "getAddress",
      args: [owner, 0n],
    }) as Promise<Address>;

  return {
    entryPoint,
    paymaster,
    accountOf,
    async send({ owner, target, data, sponsored, bundler }) {
      const sender = await accountOf(owner.address);
      const deployed = ((await client.getCode({ address: sender })) ?? "0x") !== "0x";
      if (!sponsored) {
        // The account pays its own gas from a deposit the EntryPoint holds for it.
        await depositFor(sender, "1");
      }
      const nonce = (await client.readContract({
        abi: ENTRY_POINT.abi,
        address: entryPoint,
        functionName: "getNonce",
        args: [sender, 0n],
      })) as bigint;
      const gasPrice = await client.getGasPrice();
      const op = {
        sender,
        nonce,
        initCode: deployed
          ? "0x"
          : concat([
              factory,
              encodeFunctionData({
                abi: ACCOUNT_FACTORY.abi,
                functionName: "createAccount",
                args: [owner.address, 0n],
              }),
            ]),
        callData: encodeFunctionData({ abi: ACCOUNT.abi, functionName: "execute", args: [target, 0n, data] }),
        accountGasLimits: packed(1_000_000n, 500_000n),
        preVerificationGas: 100_000n,
        gasFees: packed(gasPrice, gasPrice * 2n),
        paymasterAndData: sponsored ? concat([paymaster, packed(200_000n, 100_000n)]) : "0x",
        signature: "0x" as Hex,
      };
      const userOpHash = (await client.readContract({
        abi: ENTRY_POINT.abi,
        address: entryPoint,
        functionName: "getUserOpHash",
        args: [op],
      })) as Hex;
      // SimpleAccount v0.8 recovers the owner from the (EIP-712) user operation hash itself.
      const signature = await owner.sign!({ hash: userOpHash });
      const bundlerWallet = createWalletClient({ account: bundler, chain, transport: http() });
      const transactionHash = await bundlerWallet.writeContract({
        abi: ENTRY_POINT.abi,
        address: entryPoint,
        functionName: "handleOps",
        args: [[{ ...op, signature }], bundler.address],
        gas: 3_000_000n,
      });
      await mined(transactionHash);
      return { userOpHash, transactionHash };
    },
  };
}
