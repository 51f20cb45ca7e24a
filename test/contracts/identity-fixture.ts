// Shared setup for the identity-layer contract tests: clones, role ids, claim signing, event and revert helpers.

import {
  type Abi,
  type Address,
  concat,
  encodeAbiParameters,
  getAddress,
  type Hex,
  keccak256,
  parseEventLogs,
  toBytes,
  toHex,
} from "viem";
import { addressKey } from "../../domain/evm/identity-key.ts";
import { role, type TestChain } from "../support/chain.ts";

export { addressKey };

export const MANAGEMENT = 1n;
export const ACTION = 2n;
export const CLAIM = 3n;
export const ECDSA_KEY = 1n;

export const IDENTITY_MANAGER_ROLE = role("IDENTITY_MANAGER_ROLE");
export const CLAIM_POLICY_MANAGER_ROLE = role("CLAIM_POLICY_MANAGER_ROLE");
export const SYSTEM_MANAGER_ROLE = role("SYSTEM_MANAGER_ROLE");

/** uint256(keccak256(bytes(name))), as TopicSchemeRegistry computes it. */
export const topicId = (name: string): bigint => BigInt(keccak256(toBytes(name)));
/** The ERC-734 key of an address: keccak256(abi.encode(address)). */
/** claimId = keccak256(abi.encode(issuer, topic)). */
export const claimIdOf = (issuer: Address, topic: bigint): Hex =>
  keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [issuer, topic]));

/** An issuer's claim signature: signMessage over keccak256(abi.encode(subject, topic, data)). */
export async function signClaim(
  chain: TestChain,
  signer: number,
  subject: Address,
  topic: bigint,
  data: Hex,
): Promise<Hex> {
  const hash = keccak256(
    encodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "bytes" }], [subject, topic, data]),
  );
  return chain.wallets[signer].signMessage({ message: { raw: hash } });
}

/** Deploys an EIP-1167 minimal proxy of `implementation` (the contracts' initializers run on clones only). */
export async function cloneOf(chain: TestChain, implementation: Address): Promise<Address> {
  const data = concat([
    "0x3d602d80600a3d3981f3363d3d373d3d3d363d73",
    implementation,
    "0x5af43d82803e903d91602b57fd5bf3",
  ]);
  const hash = await chain.wallets[0].sendTransaction({ data });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("clone deployment failed");
  return getAddress(receipt.contractAddress);
}

/** Deploys `name` and returns an initialised clone of it. */
export async function deployClone(chain: TestChain, name: string, initArgs: readonly unknown[]): Promise<Address> {
  const impl = await chain.deploy(name);
  const clone = await cloneOf(chain, impl);
  await chain.write(0, clone, chain.abi(name), "initialize", initArgs);
  return clone;
}

/** Decoded events of a mined transaction, optionally of one name. */
export async function eventsOf(chain: TestChain, hash: Hex, abi: Abi, eventName?: string) {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash });
  const logs = parseEventLogs({ abi, logs: receipt.logs });
  return (eventName ? logs.filter((l) => l.eventName === eventName) : logs) as unknown as {
    eventName: string;
    address: Address;
    args: Record<string, unknown>;
  }[];
}

/** Asserts the promise rejects with the custom error `errorName` (and `args` when given). */

export async function read<T>(
  chain: TestChain,
  address: Address,
  abi: Abi,
  functionName: string,
  args: unknown[] = [],
) {
  return (await chain.publicClient.readContract({ address, abi, functionName, args } as never)) as T;
}

export const claimData = (text: string): Hex => toHex(text);

export interface IdentityStack {
  accessControl: Address;
  factory: Address;
  announcer: Address;
}

/** Access control (account 0 holds every identity role) and a factory clone announcing to a mock root. */
export async function deployIdentityStack(chain: TestChain): Promise<IdentityStack> {
  const accessControl = getAddress(await chain.deploy("MockIdentityAccessControl"));
  const acAbi = chain.abi("MockIdentityAccessControl");
  for (const r of [IDENTITY_MANAGER_ROLE, CLAIM_POLICY_MANAGER_ROLE, SYSTEM_MANAGER_ROLE]) {
    await chain.write(0, accessControl, acAbi, "grantRole", [r, chain.accounts[0]]);
  }
  const identityImpl = await chain.deploy("Identity");
  const contractIdentityImpl = await chain.deploy("ContractIdentity");
  const announcer = getAddress(await chain.deploy("MockIdentityAnnouncer"));
  const factory = await deployClone(chain, "IdentityFactory", [
    accessControl,
    identityImpl,
    contractIdentityImpl,
    announcer,
  ]);
  return { accessControl, factory, announcer };
}

/** Creates `wallet`'s identity through the factory (sent by account `from`) and returns its address. */
export async function createIdentity(
  chain: TestChain,
  factory: Address,
  wallet: Address,
  extraKeys: Hex[] = [],
  from = 0,
): Promise<Address> {
  const abi = chain.abi("IdentityFactory");
  const hash = await chain.write(from, factory, abi, "createIdentity", [wallet, extraKeys]);
  const [created] = await eventsOf(chain, hash, abi, "IdentityCreated");
  return created.args.identity as Address;
}

export { expectRevert, role } from "../support/chain.ts";
