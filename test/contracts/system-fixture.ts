// Shared setup for the system contract tests: a forwarder, an access manager clone and helpers to clone
// implementations, read events and assert custom errors.

import { type Abi, type Address, encodeFunctionData, getAddress, type Hex, parseEventLogs } from "viem";
import { expect } from "vitest";
import { FORWARD_REQUEST_TYPES, role, startTestChain, type TestChain } from "../support/chain.ts";

export const ROLES = {
  DEFAULT_ADMIN: `0x${"00".repeat(32)}` as Hex,
  SYSTEM_MANAGER: role("SYSTEM_MANAGER_ROLE"),
  TOKEN_MANAGER: role("TOKEN_MANAGER_ROLE"),
  IDENTITY_MANAGER: role("IDENTITY_MANAGER_ROLE"),
  COMPLIANCE_MANAGER: role("COMPLIANCE_MANAGER_ROLE"),
  ADDON_MANAGER: role("ADDON_MANAGER_ROLE"),
  CLAIM_POLICY_MANAGER: role("CLAIM_POLICY_MANAGER_ROLE"),
  SYSTEM_MODULE: role("SYSTEM_MODULE_ROLE"),
  TOKEN_FACTORY_MODULE: role("TOKEN_FACTORY_MODULE_ROLE"),
  ADDON_FACTORY_MODULE: role("ADDON_FACTORY_MODULE_ROLE"),
  IDENTITY_REGISTRY_MODULE: role("IDENTITY_REGISTRY_MODULE_ROLE"),
} as const;

export interface SystemFixture {
  chain: TestChain;
  /** accounts[0]: admin; [1]: manager of every kind; [2]: outsider; [3]: relayer. */
  admin: Address;
  manager: Address;
  outsider: Address;
  relayer: Address;
  forwarder: Address;
  cloner: Address;
  accessManager: Address;
  deploy(name: string, args?: readonly unknown[]): Promise<Address>;
  /** Clones `implementation` and calls `initialize(...args)` on it in one transaction. */
  clone(name: string, implementation: Address, args: readonly unknown[]): Promise<Address>;
  /** Same as `clone`, with the decoded logs of the transaction (events emitted by the initializer). */
  cloneWithLogs(name: string, implementation: Address, args: readonly unknown[]): Promise<Sent & { address: Address }>;
  /** Sends a write from account `from`; errors bubbled from other contracts decode too. */
  send(from: number, address: Address, name: string, fn: string, args?: readonly unknown[]): Promise<Sent>;
  /** Signs `fn(args)` on `to` as account `signer` and has account `relayer` submit it through the forwarder. */
  forward(
    signer: number,
    relayer: number,
    to: Address,
    name: string,
    fn: string,
    args?: readonly unknown[],
  ): Promise<Sent>;
  read<T>(address: Address, name: string, fn: string, args?: readonly unknown[]): Promise<T>;
}

export interface Sent {
  logs: DecodedLog[];
  /** The block timestamp of the transaction. */
  timestamp: bigint;
}

export interface DecodedLog {
  eventName: string;
  address: Address;
  args: Record<string, unknown>;
}

export async function startSystemFixture(): Promise<SystemFixture> {
  const chain = await startTestChain();
  const [admin, manager, outsider, relayer] = chain.accounts;
  const deploy = async (name: string, args: readonly unknown[] = []) => getAddress(await chain.deploy(name, args));
  const forwarder = await deploy("Forwarder");
  const cloner = await deploy("MockCloner");

  const errors = allErrors(chain);
  const send = async (from: number, address: Address, name: string, fn: string, args: readonly unknown[] = []) => {
    const hash = await chain.write(from, address, [...chain.abi(name), ...errors], fn, args);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const block = await chain.publicClient.getBlock({ blockHash: receipt.blockHash });
    return { logs: decodeLogs(chain, receipt.logs), timestamp: block.timestamp };
  };
  const cloneWithLogs = async (name: string, implementation: Address, args: readonly unknown[]) => {
    const data = encodeFunctionData({ abi: chain.abi(name), functionName: "initialize", args } as never);
    const sent = await send(0, cloner, "MockCloner", "cloneAndCall", [implementation, data]);
    const cloned = sent.logs.find((log) => log.eventName === "Cloned");
    if (!cloned) throw new Error("No Cloned event");
    return { ...sent, address: cloned.args.clone as Address };
  };
  const clone = async (name: string, implementation: Address, args: readonly unknown[]) =>
    (await cloneWithLogs(name, implementation, args)).address;
  const read = async <T>(address: Address, name: string, fn: string, args: readonly unknown[] = []) =>
    (await chain.publicClient.readContract({ address, abi: chain.abi(name), functionName: fn, args } as never)) as T;

  const forward = async (
    signer: number,
    relayer: number,
    to: Address,
    name: string,
    fn: string,
    args: readonly unknown[] = [],
  ) => {
    const request = await signForwardRequest(chain, forwarder, signer, to, name, fn, args);
    return send(relayer, forwarder, "Forwarder", "execute", [request]);
  };

  const accessManagerImpl = await deploy("SystemAccessManager", [forwarder]);
  const accessManager = await clone("SystemAccessManager", accessManagerImpl, [[admin]]);
  return {
    chain,
    admin,
    manager,
    outsider,
    relayer,
    forwarder,
    cloner,
    accessManager,
    deploy,
    clone,
    cloneWithLogs,
    send,
    forward,
    read,
  };
}

/** An ERC2771Forwarder request signed with EIP-712 (domain "Forwarder", version "1"), ready for `execute`. */
export async function signForwardRequest(
  chain: TestChain,
  forwarder: Address,
  signer: number,
  to: Address,
  name: string,
  fn: string,
  args: readonly unknown[],
  options: { from?: Address; deadline?: bigint } = {},
) {
  const wallet = chain.wallets[signer];
  const from = options.from ?? wallet.account.address;
  const data = encodeFunctionData({ abi: chain.abi(name), functionName: fn, args } as never);
  const nonce = (await chain.publicClient.readContract({
    address: forwarder,
    abi: chain.abi("Forwarder"),
    functionName: "nonces",
    args: [from],
  })) as bigint;
  const latest = await chain.publicClient.getBlock();
  const deadline = options.deadline ?? latest.timestamp + 3600n;
  const message = { from, to, value: 0n, gas: 500_000n, nonce, deadline: Number(deadline), data };
  const signature = await wallet.signTypedData({
    domain: { name: "Forwarder", version: "1", chainId: chain.chain.id, verifyingContract: forwarder },
    types: FORWARD_REQUEST_TYPES,
    primaryType: "ForwardRequest",
    message,
  });
  return { from, to, value: 0n, gas: 500_000n, deadline: Number(deadline), data, signature };
}

/** Every custom error of the build, deduplicated, so reverts bubbled through clones and calls decode. */
function allErrors(chain: TestChain): Abi {
  const items = Object.values(chain.build.contracts).flatMap((c) => c.abi.filter((item) => item.type === "error"));
  return [...new Map(items.map((item) => [JSON.stringify(item), item])).values()] as Abi;
}

/** Decodes every log against every compiled ABI (events are unique enough by signature here). */
function decodeLogs(chain: TestChain, logs: Parameters<typeof parseEventLogs>[0]["logs"]): DecodedLog[] {
  const abi = Object.values(chain.build.contracts).flatMap((c) => c.abi.filter((item) => item.type === "event"));
  const unique = [...new Map(abi.map((item) => [JSON.stringify(item), item])).values()] as Abi;
  return parseEventLogs({ abi: unique, logs, strict: true }).map((log) => ({
    eventName: log.eventName as string,
    address: getAddress(log.address),
    args: log.args as Record<string, unknown>,
  }));
}

export function eventsNamed(logs: DecodedLog[], eventName: string): DecodedLog[] {
  return logs.filter((log) => log.eventName === eventName);
}

/** Asserts the one event of that name in `logs` and returns its args. */
export function theEvent(logs: DecodedLog[], eventName: string): Record<string, unknown> {
  const found = eventsNamed(logs, eventName);
  expect(found, `${eventName} events`).toHaveLength(1);
  return found[0].args;
}

/** Asserts that `promise` fails with the custom error `errorName` and, when given, exactly `args`. */

export { EIP170_LIMIT, expectRevert, role } from "../support/chain.ts";
