// Smart wallets on a real EntryPoint v0.8: the factory, the sponsoring paymaster, weighted-multisig user
// operations built with viem's account-abstraction helpers, and a test EOA bundler calling handleOps.
import {
  type Abi,
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  type LocalAccount,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
} from "viem";
import {
  entryPoint08Abi,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from "viem/account-abstraction";
import { deployAccountAbstraction } from "../support/account-abstraction.ts";
import { ANVIL_ACCOUNTS, startTestChain, type TestChain } from "../support/chain.ts";

/** The account's configuration at creation, as the factory takes it. */
export interface WalletConfig {
  signers: Address[];
  weights: bigint[];
  threshold: bigint;
  salt: bigint;
}

export interface OperationInput {
  sender: Address;
  callData: Hex;
  /** Who signs the operation's hash (any order: packed sorted by address). */
  signers: LocalAccount[];
  /** Deploys the account through the factory in this operation. */
  deploy?: WalletConfig;
  /** Gas paid by the sponsoring paymaster; otherwise by the account. */
  sponsored?: boolean;
}

export interface SmartWalletFixture {
  chain: TestChain;
  entryPoint: Address;
  factory: Address;
  paymaster: Address;
  /** Every ABI a handleOps receipt can carry, for decoding its logs. */
  abi: Abi;
  accountAbi: Abi;
  factoryAbi: Abi;
  paymasterAbi: Abi;
  /** Signatures of `signers` over `hash`, each 65 bytes, concatenated in ascending signer-address order. */
  pack(hash: Hex, signers: LocalAccount[]): Promise<Hex>;
  /** The user operation (signed), its packed form and hash. */
  operation(input: OperationInput): Promise<{ userOpHash: Hex; packed: ReturnType<typeof toPackedUserOperation> }>;
  /** Submits the operation through handleOps from the bundler EOA (anvil account 4); refusals throw decoded. */
  handle(input: OperationInput): Promise<{ userOpHash: Hex; receipt: TransactionReceipt }>;
  /** Decoded logs of `receipt` named `eventName`, optionally emitted by `address` only. */
  events(receipt: TransactionReceipt, eventName: string, address?: Address): Record<string, unknown>[];
  read<T>(address: Address, abi: Abi, functionName: string, args?: readonly unknown[]): Promise<T>;
}

const BUNDLER = 4;

export async function startSmartWalletFixture(): Promise<SmartWalletFixture> {
  const chain = await startTestChain();
  const { publicClient, wallets } = chain;
  // Checksummed, as decoded event arguments are.
  const entryPoint = getAddress((await deployAccountAbstraction(chain.chain, ANVIL_ACCOUNTS[0])).entryPoint);
  const factory = getAddress(await chain.deploy("WeightedMultisigAccountFactory", [entryPoint]));
  const paymaster = getAddress(await chain.deploy("SponsoringPaymaster", [entryPoint, chain.accounts[0]]));
  const accountAbi = chain.abi("WeightedMultisigAccount");
  const factoryAbi = chain.abi("WeightedMultisigAccountFactory");
  const paymasterAbi = chain.abi("SponsoringPaymaster");
  const depositHash = await wallets[0].writeContract({
    address: paymaster,
    abi: paymasterAbi,
    functionName: "deposit",
    value: parseEther("10"),
  });
  await publicClient.waitForTransactionReceipt({ hash: depositHash });
  const abi = [...entryPoint08Abi, ...accountAbi, ...factoryAbi, ...paymasterAbi, ...chain.abi("MockERC20")] as Abi;

  const read = <T>(address: Address, contractAbi: Abi, functionName: string, args: readonly unknown[] = []) =>
    publicClient.readContract({ address, abi: contractAbi, functionName, args }) as Promise<T>;

  async function pack(hash: Hex, signers: LocalAccount[]): Promise<Hex> {
    const sorted = [...signers].sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1));
    const signatures = await Promise.all(sorted.map((signer) => signer.sign!({ hash })));
    return `0x${signatures.map((s) => s.slice(2)).join("")}`;
  }

  async function operation(input: OperationInput) {
    const gasPrice = await publicClient.getGasPrice();
    const userOperation: UserOperation<"0.8"> = {
      sender: input.sender,
      nonce: await read<bigint>(entryPoint, entryPoint08Abi as Abi, "getNonce", [input.sender, 0n]),
      ...(input.deploy && {
        factory,
        factoryData: encodeFunctionData({
          abi: factoryAbi,
          functionName: "createAccount",
          args: [input.deploy.signers, input.deploy.weights, input.deploy.threshold, input.deploy.salt],
        }),
      }),
      callData: input.callData,
      callGasLimit: 500_000n,
      verificationGasLimit: 1_000_000n,
      preVerificationGas: 100_000n,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: gasPrice,
      ...(input.sponsored && {
        paymaster,
        paymasterVerificationGasLimit: 100_000n,
        paymasterPostOpGasLimit: 0n,
        paymasterData: "0x" as Hex,
      }),
      signature: "0x",
    };
    const userOpHash = getUserOperationHash({
      chainId: chain.chain.id,
      entryPointAddress: entryPoint,
      entryPointVersion: "0.8",
      userOperation,
    });
    const signature = await pack(userOpHash, input.signers);
    return { userOpHash, packed: toPackedUserOperation({ ...userOperation, signature }) };
  }

  return {
    chain,
    entryPoint,
    factory,
    paymaster,
    abi,
    accountAbi,
    factoryAbi,
    paymasterAbi,
    pack,
    operation,
    async handle(input) {
      const { userOpHash, packed } = await operation(input);
      const bundler = wallets[BUNDLER];
      // Simulate first so a refusal (FailedOp, FailedOpWithRevert) surfaces as a decoded revert.
      const { request } = await publicClient.simulateContract({
        account: bundler.account,
        address: entryPoint,
        abi: entryPoint08Abi,
        functionName: "handleOps",
        args: [[packed], bundler.account.address],
        gas: 5_000_000n,
      });
      const hash = await bundler.writeContract(request);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`handleOps reverted on chain (${hash})`);
      return { userOpHash, receipt };
    },
    events(receipt, eventName, address) {
      return parseEventLogs({ abi, logs: receipt.logs, eventName })
        .filter((log) => !address || log.address.toLowerCase() === address.toLowerCase())
        .map((log) => log.args as Record<string, unknown>);
    },
    read,
  };
}
