// SimpleAccounts (the account-abstraction package's sample of the EntryPoint's release, v0.7 or v0.8) on the
// platform's EntryPoint, for the bundler benchmark: a factory, accounts funded and deployed (by a first operation each,
// sent straight to handleOps), and their UserOperations: the same call and the same explicit gas fields every time,
// signed by their owners.
import {
  type Address,
  type Chain,
  encodeFunctionData,
  type Hex,
  keccak256,
  type LocalAccount,
  parseEther,
  parseGwei,
  toHex,
} from "viem";
import {
  entryPoint07Abi,
  entryPoint08Abi,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { accountAbstractionArtifact, type EntryPointVersion } from "../host/chain/entry-point.ts";
import { chainClients } from "./chain-clients.ts";

const RECIPIENT: Address = "0x000000000000000000000000000000000000bEEF";

/** Explicit gas fields (no estimation): generous for a deployed SimpleAccount's validation and a 1-wei transfer. */
const GAS = {
  callGasLimit: 100_000n,
  verificationGasLimit: 150_000n,
  preVerificationGas: 60_000n,
  maxFeePerGas: parseGwei("10"),
  maxPriorityFeePerGas: parseGwei("1"),
};
/** The first operation also deploys the account. */
const DEPLOYING_VERIFICATION_GAS = 500_000n;

export interface BenchAccount {
  owner: LocalAccount;
  address: Address;
}

export interface SimpleAccounts {
  entryPoint: Address;
  accounts: BenchAccount[];
  /** `account.execute(RECIPIENT, 1 wei, "")` at `nonce`, signed, and its hash. */
  operation(account: BenchAccount, nonce: bigint): Promise<{ op: UserOperation<"0.7">; hash: Hex }>;
}

export async function simpleAccounts(input: {
  chain: Chain;
  entryPoint: Address;
  version: EntryPointVersion;
  /** Deploys the factory, funds the accounts and sends their deploying operations. */
  deployer: LocalAccount;
  count: number;
}): Promise<SimpleAccounts> {
  const { chain, entryPoint, version, deployer, count } = input;
  const FACTORY = accountAbstractionArtifact("SimpleAccountFactory", version);
  const ACCOUNT = accountAbstractionArtifact("SimpleAccount", version);
  const { client, wallet } = chainClients(chain, deployer);
  const mined = async (hash: Hex) => {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`setup transaction ${hash} reverted`);
    return receipt;
  };
  const factory = (
    await mined(await wallet.deployContract({ abi: FACTORY.abi, bytecode: FACTORY.bytecode, args: [entryPoint] }))
  ).contractAddress as Address;

  const accounts: BenchAccount[] = [];
  for (let i = 0; i < count; i++) {
    const owner = privateKeyToAccount(keccak256(toHex(`bundler bench owner ${i}`)));
    const address = (await client.readContract({
      abi: FACTORY.abi,
      address: factory,
      functionName: "getAddress",
      args: [owner.address, 0n],
    })) as Address;
    // Each account pays its operations' gas itself (the EntryPoint takes the prefund from its balance).
    await mined(await wallet.sendTransaction({ to: address, value: parseEther("1") }));
    accounts.push({ owner, address });
  }

  // The fields of v0.7 and v0.8 operations are the same (v0.8 adds only the optional EIP-7702 authorisation).
  async function sign(account: BenchAccount, op: UserOperation<"0.7">) {
    const hash = getUserOperationHash({
      chainId: chain.id,
      entryPointAddress: entryPoint,
      entryPointVersion: version,
      userOperation: op,
    });
    // SimpleAccount v0.8 recovers its owner from the (EIP-712) operation hash itself, v0.7 from its EIP-191 digest.
    const signature =
      version === "0.8"
        ? await account.owner.sign!({ hash })
        : await account.owner.signMessage({ message: { raw: hash } });
    return { op: { ...op, signature }, hash };
  }
  const unsigned = (account: BenchAccount, nonce: bigint): UserOperation<"0.7"> => ({
    sender: account.address,
    nonce,
    callData: encodeFunctionData({ abi: ACCOUNT.abi, functionName: "execute", args: [RECIPIENT, 1n, "0x"] }),
    ...GAS,
    signature: "0x",
  });

  // Deployment: each account's operation 0 carries the factory call; one handleOps for all of them.
  const deploying = await Promise.all(
    accounts.map((account) =>
      sign(account, {
        ...unsigned(account, 0n),
        factory,
        factoryData: encodeFunctionData({
          abi: FACTORY.abi,
          functionName: "createAccount",
          args: [account.owner.address, 0n],
        }),
        verificationGasLimit: DEPLOYING_VERIFICATION_GAS,
      }),
    ),
  );
  await mined(
    await wallet.sendTransaction({
      to: entryPoint,
      data: encodeFunctionData({
        abi: version === "0.8" ? entryPoint08Abi : entryPoint07Abi,
        functionName: "handleOps",
        args: [deploying.map(({ op }) => toPackedUserOperation(op)), deployer.address],
      }),
    }),
  );
  for (const { address } of accounts)
    if (!(await client.getCode({ address }))) throw new Error(`account ${address} was not deployed`);

  return { entryPoint, accounts, operation: (account, nonce) => sign(account, unsigned(account, nonce)) };
}
