// Shared setup for the compliance tests: one engine clone on a bare anvil, every module cloned and
// registered, a mock identity registry, and helpers that drive a MockComplianceToken like a token.

import {
  type Abi,
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseAbiParameters,
  parseEventLogs,
  toHex,
} from "viem";
import { expectRevert, startTestChain, type TestChain } from "../support/chain.ts";

/** Contract name → the spec's control type id. */
export const MODULE_TYPE_IDS = {
  AddressBlockListModule: "address-block-list-v2",
  CapitalRaiseLimitModule: "capital-raise-limit",
  CappedModule: "capped-v2",
  CollateralModule: "collateral-v2",
  CountryAllowListModule: "country-allow-list-v2",
  CountryBlockListModule: "country-block-list-v2",
  IdentityAllowListModule: "identity-allow-list-v2",
  IdentityBlockListModule: "identity-block-list-v2",
  IdentityVerificationModule: "identity-verification-v2",
  InvestorCountModule: "investor-count-v2",
  TimeLockModule: "time-lock-v2",
  TransferApprovalModule: "transfer-approval-v2",
  LegacyCountryAllowListModule: "country-allow-list",
  LegacyInvestorCountModule: "investor-count",
  LegacyTransferApprovalModule: "transfer-approval",
} as const;
export type ModuleName = keyof typeof MODULE_TYPE_IDS;
export const MODULE_NAMES = Object.keys(MODULE_TYPE_IDS) as ModuleName[];

/** The `bytes params` encodings per module, as the API would build them from JSON. */
export const encodeParams = {
  addresses: (list: Address[]) => encodeAbiParameters(parseAbiParameters("address[]"), [list]),
  countries: (list: number[]) => encodeAbiParameters(parseAbiParameters("uint16[]"), [list]),
  capped: (maxSupply: bigint) => encodeAbiParameters(parseAbiParameters("uint256"), [maxSupply]),
  capitalRaise: (maxTotal: bigint, periodLimit: bigint, periodLength: bigint) =>
    encodeAbiParameters(parseAbiParameters("uint256, uint256, uint64"), [maxTotal, periodLimit, periodLength]),
  collateral: (oracle: Address, ratioBps: number) =>
    encodeAbiParameters(parseAbiParameters("address, uint32"), [oracle, ratioBps]),
  expression: (nodes: { nodeType: number; value: bigint }[]) =>
    encodeAbiParameters(parseAbiParameters("(uint8 nodeType, uint256 value)[]"), [nodes]),
  investorCount: (maxInvestors: bigint, countries: number[], limits: bigint[]) =>
    encodeAbiParameters(parseAbiParameters("uint256, uint16[], uint256[]"), [maxInvestors, countries, limits]),
  timeLock: (seconds: bigint) => encodeAbiParameters(parseAbiParameters("uint64"), [seconds]),
  transferApproval: (approvers: Address[], validity: bigint) =>
    encodeAbiParameters(parseAbiParameters("address[], uint64"), [approvers, validity]),
};

/** Expression nodes of identity-verification-v2 (postfix). */
export const node = {
  topic: (value: bigint) => ({ nodeType: 0, value }),
  and: { nodeType: 1, value: 0n },
  or: { nodeType: 2, value: 0n },
  not: { nodeType: 3, value: 0n },
};

export const SYSTEM_MANAGER_ROLE = keccak256(toHex("SYSTEM_MANAGER_ROLE"));

export interface ComplianceFixture {
  chain: TestChain;
  engine: Address;
  registry: Address;
  accessControl: Address;
  cloner: Address;
  /** Implementation (not initialisable) of each module, and the system's registered clone. */
  implementations: Record<ModuleName | "Compliance", Address>;
  modules: Record<ModuleName, Address>;
  /** Every compiled error of the engine, modules and token, to decode reverts from any depth. */
  errors: Abi;
  abiOf(name: string): Abi;
  clone(implementation: Address, initData: Hex): Promise<Address>;
  cloneModule(name: ModuleName, engine?: Address): Promise<Address>;
  newToken(): Promise<Address>;
  write(from: number, address: Address, contract: string, fn: string, args?: readonly unknown[]): Promise<Hex>;
  read<T>(address: Address, contract: string, fn: string, args?: readonly unknown[]): Promise<T>;
  addModule(token: Address, name: ModuleName, params: Hex, from?: number): Promise<Hex>;
  setParams(token: Address, name: ModuleName, params: Hex): Promise<Hex>;
  mint(token: Address, to: Address, amount: bigint): Promise<Hex>;
  burn(token: Address, from: Address, amount: bigint): Promise<Hex>;
  transfer(token: Address, from: number, to: Address, amount: bigint): Promise<Hex>;
  balanceOf(token: Address, holder: Address): Promise<bigint>;
  register(wallet: Address, country: number, identity?: Address): Promise<void>;
  events(hash: Hex, contract: string, eventName: string): Promise<{ address: Address; args: unknown }[]>;
  increaseTime(seconds: number): Promise<void>;
}

export async function setupCompliance(): Promise<ComplianceFixture> {
  const chain = await startTestChain();
  const { publicClient } = chain;
  const errors: Abi = ["Compliance", ...MODULE_NAMES, "MockComplianceToken", "MockCloner", "MockAccessControl"].flatMap(
    (name) => chain.abi(name).filter((item) => item.type === "error"),
  );
  const abiOf = (name: string): Abi => [...chain.abi(name), ...errors];
  const write = (from: number, address: Address, contract: string, fn: string, args: readonly unknown[] = []) =>
    chain.write(from, address, abiOf(contract), fn, args);
  const read = async <T>(address: Address, contract: string, fn: string, args: readonly unknown[] = []) =>
    (await publicClient.readContract({ address, abi: abiOf(contract), functionName: fn, args } as never)) as T;

  const accessControl = getAddress(await chain.deploy("MockAccessControl"));
  await write(0, accessControl, "MockAccessControl", "grantRole", [SYSTEM_MANAGER_ROLE, chain.accounts[0]]);
  const registry = getAddress(await chain.deploy("MockIdentityRegistry"));
  const cloner = getAddress(await chain.deploy("MockCloner"));

  const clone = async (implementation: Address, initData: Hex): Promise<Address> => {
    const hash = await write(0, cloner, "MockCloner", "cloneAndCall", [implementation, initData]);
    const [log] = await eventsOf(hash, "MockCloner", "Cloned");
    return getAddress((log.args as { clone: Address }).clone);
  };
  const eventsOf = async (hash: Hex, contract: string, eventName: string) => {
    const receipt = await publicClient.getTransactionReceipt({ hash });
    return parseEventLogs({ abi: chain.abi(contract), logs: receipt.logs, eventName } as never).map((log) => ({
      address: getAddress((log as { address: Address }).address),
      args: (log as unknown as { args: unknown }).args,
    }));
  };

  const implementations = {} as Record<ModuleName | "Compliance", Address>;
  implementations.Compliance = getAddress(await chain.deploy("Compliance"));
  const engine = await clone(
    implementations.Compliance,
    encodeFunctionData({ abi: chain.abi("Compliance"), functionName: "initialize", args: [accessControl, registry] }),
  );
  for (const name of MODULE_NAMES) implementations[name] = getAddress(await chain.deploy(name));
  const cloneModule = (name: ModuleName, boundTo: Address = engine) =>
    clone(
      implementations[name],
      encodeFunctionData({ abi: chain.abi(name), functionName: "initialize", args: [boundTo, registry] }),
    );
  const modules = {} as Record<ModuleName, Address>;
  for (const name of MODULE_NAMES) {
    modules[name] = await cloneModule(name);
    await write(0, engine, "Compliance", "registerModule", [modules[name]]);
  }

  const fixture: ComplianceFixture = {
    chain,
    engine,
    registry,
    accessControl,
    cloner,
    implementations,
    modules,
    errors,
    abiOf,
    clone,
    cloneModule,
    newToken: async () => getAddress(await chain.deploy("MockComplianceToken", [engine])),
    write,
    read,
    addModule: (token, name, params, from = 0) =>
      write(from, token, "MockComplianceToken", "addModule", [modules[name], params]),
    setParams: (token, name, params) =>
      write(0, token, "MockComplianceToken", "setModuleParameters", [modules[name], params]),
    mint: (token, to, amount) => write(0, token, "MockComplianceToken", "mint", [to, amount]),
    burn: (token, from, amount) => write(0, token, "MockComplianceToken", "burn", [from, amount]),
    transfer: (token, from, to, amount) => write(from, token, "MockComplianceToken", "transfer", [to, amount]),
    balanceOf: (token, holder) => read<bigint>(token, "MockComplianceToken", "balanceOf", [holder]),
    register: async (wallet, country, identity) => {
      const id = identity ?? getAddress(keccak256(wallet).slice(0, 42));
      await write(0, registry, "MockIdentityRegistry", "register", [wallet, id, country]);
    },
    events: eventsOf,
    increaseTime: async (seconds) => {
      await chain.testClient.increaseTime({ seconds });
      await chain.testClient.mine({ blocks: 1 });
    },
  };
  return fixture;
}

/** Awaits a call that must revert with custom error `name` (and `args` when given). */

/** Awaits a token call that the engine must refuse with ComplianceCheckFailed(module, typeId, reason). */
export function expectRefusal(f: ComplianceFixture, call: Promise<unknown>, name: ModuleName, reason: string) {
  return expectRevert(call, "ComplianceCheckFailed", [f.modules[name], MODULE_TYPE_IDS[name], reason]);
}

export { expectRevert } from "../support/chain.ts";
