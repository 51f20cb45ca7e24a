// A bare anvil plus the compiled contracts, for contract tests that need no database or host.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Abi,
  type Account,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  type TestClient,
  toHex,
  type Chain as ViemChain,
  type WalletClient,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { expect } from "vitest";
import { type BuildOutput, compileContracts } from "../../scripts/contracts/compile.ts";
import { startChain } from "../../scripts/infra/anvil.ts";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { freePort } from "./stack.ts";

/** anvil's well-known test mnemonic: its default accounts 0..4, funded at genesis. */
const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
export const ANVIL_ACCOUNTS = [0, 1, 2, 3, 4].map((addressIndex) =>
  mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex }),
);

export interface TestChain {
  build: BuildOutput;
  chain: ViemChain;
  publicClient: PublicClient;
  testClient: TestClient;
  /** Wallets for anvil's default accounts 0..4 (0 is the deployer). */
  wallets: WalletClient<ReturnType<typeof http>, ViemChain, Account>[];
  accounts: Address[];
  /** Deploys a compiled contract by name and waits for it; returns its address. */
  deploy(name: string, args?: readonly unknown[], from?: number): Promise<Address>;
  /** Sends a contract write and waits for a successful receipt; throws the decoded revert otherwise. */
  write(from: number, address: Address, abi: Abi, functionName: string, args?: readonly unknown[]): Promise<Hex>;
  abi(name: string): Abi;
  stop(): Promise<void>;
}

export async function startTestChain(): Promise<TestChain> {
  const build = compileContracts();
  const dataDir = mkdtempSync(join(tmpdir(), "contracts-test-"));
  const node = await startChain({ dataDir, port: await freePort() });
  const chain: ViemChain = {
    id: node.chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [node.rpcUrl] } },
  };
  const transport = http(node.rpcUrl);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
  const testClient = createTestClient({ chain, transport, mode: "anvil" }) as TestClient;
  const wallets = ANVIL_ACCOUNTS.map((account) => createWalletClient({ account, chain, transport }));
  const abi = (name: string): Abi => {
    const contract = build.contracts[name];
    if (!contract) throw new Error(`No compiled contract named ${name}`);
    return contract.abi;
  };
  return {
    build,
    chain,
    publicClient,
    testClient,
    wallets,
    accounts: wallets.map((w) => w.account.address),
    abi,
    async deploy(name, args = [], from = 0) {
      const contract = build.contracts[name];
      if (!contract) throw new Error(`No compiled contract named ${name}`);
      const hash = await wallets[from].deployContract({ abi: contract.abi, bytecode: contract.bytecode, args });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`Deploying ${name} reverted`);
      return receipt.contractAddress;
    },
    async write(from, address, contractAbi, functionName, args = []) {
      // Simulate first so a revert surfaces as viem's decoded ContractFunctionRevertedError.
      const { request } = await publicClient.simulateContract({
        account: wallets[from].account,
        address,
        abi: contractAbi,
        functionName,
        args,
      } as never);
      const hash = await wallets[from].writeContract(request as never);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`${functionName} reverted on chain (${hash})`);
      return hash;
    },
    async stop() {
      await node.stop();
      removeDataDir(dataDir);
    },
  };
}

/** EIP-170: the largest runtime bytecode a chain accepts. */
export const EIP170_LIMIT = 24_576;

/** A role id as OpenZeppelin writes it: keccak256 of its name. */
export const role = (name: string): Hex => keccak256(toHex(name));

/** Awaits a contract call that must revert with the custom error `errorName` (and `args`, when given). */
export async function expectRevert(call: Promise<unknown>, errorName: string, args?: readonly unknown[]) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected a revert with ${errorName}`).toBeInstanceOf(BaseError);
  const revert = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as
    | ContractFunctionRevertedError
    | undefined;
  expect(revert?.data?.errorName, (error as BaseError).shortMessage).toBe(errorName);
  if (args) expect(revert?.data?.args ?? []).toEqual(args);
}

/** EIP-712 types of an ERC2771Forwarder request (domain "Forwarder", version "1"). */
export const FORWARD_REQUEST_TYPES = {
  ForwardRequest: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "gas", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint48" },
    { name: "data", type: "bytes" },
  ],
} as const;
