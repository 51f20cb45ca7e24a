// Shared set-up for the token and feature contract tests: a system with the feature registry filled,
// token creation through the TokenFactory, event reads and exact custom-error assertions.
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  getAddress,
  type Hex,
  parseEventLogs,
  type TransactionReceipt,
} from "viem";
import { deployPlatformRoot, FEATURE_CONTRACTS, IMPLEMENTATIONS } from "../../scripts/contracts/platform-contracts.ts";
import { role, startTestChain, type TestChain } from "../support/chain.ts";

export const FEATURES = FEATURE_CONTRACTS;
export type FeatureId = keyof typeof FEATURES;

export const ZERO: Address = "0x0000000000000000000000000000000000000000";
export const ROLES = {
  supply: role("SUPPLY_MANAGEMENT_ROLE"),
  custodian: role("CUSTODIAN_ROLE"),
  governance: role("GOVERNANCE_ROLE"),
  emergency: role("EMERGENCY_ROLE"),
};

interface DecodedLog {
  address: Address;
  args: Record<string, unknown>;
}
export interface FeatureConfig {
  featureId: string;
  params: Hex;
}
export interface CreatedToken {
  token: Address;
  features: Record<string, Address>;
  receipt: TransactionReceipt;
}

export interface TokenFixture {
  chain: TestChain;
  system: Address;
  /** The system's roles (SystemAccessManager). */
  accessManager: Address;
  tokenFactory: Address;
  systemFactory: Address;
  implementations: Record<string, Address>;
  /**
   * chain.write with a 30 % gas margin: checkpoint writes cost more when the mined block's timestamp
   * differs from the one gas was estimated at (a new checkpoint instead of an overwrite).
   */
  write(from: number, address: Address, abi: Abi, functionName: string, args?: readonly unknown[]): Promise<Hex>;
  /** Deploys a compiled contract; returns its checksummed address. */
  deploy(name: string, args?: readonly unknown[], from?: number): Promise<Address>;
  /** Token ABI plus every feature's and the mock compliance's errors and events, for decoding nested reverts. */
  tokenAbi: Abi;
  featureAbi(id: FeatureId): Abi;
  createToken(options?: {
    from?: number;
    name?: string;
    symbol?: string;
    decimals?: number;
    features?: FeatureConfig[];
    compliance?: Address;
    modules?: { module: Address; params: Hex }[];
  }): Promise<CreatedToken>;
  receipt(hash: Hex): Promise<TransactionReceipt>;
  /** Registers `wallet` with an identity in the system's identity registry (verified: a forced transfer may reach it). */
  verify(wallet: Address): Promise<void>;
  events(abi: Abi, receipt: TransactionReceipt, eventName: string, address?: Address): Record<string, unknown>[];
  read<T>(address: Address, abi: Abi, functionName: string, args?: readonly unknown[]): Promise<T>;
  /** Moves the chain's clock forward and mines a block with that timestamp. */
  travel(seconds: number): Promise<bigint>;
  now(): Promise<bigint>;
}

/** Every error and event of the contracts a token call can reach, so viem decodes nested reverts. */
function mergedAbi(chain: TestChain, names: string[]): Abi {
  const seen = new Set<string>();
  const merged: Abi[number][] = [];
  for (const name of names) {
    for (const item of chain.abi(name)) {
      const key = JSON.stringify(item);
      if (item.type === "constructor" || seen.has(key)) continue;
      if (name !== names[0] && item.type === "function") continue;
      seen.add(key);
      merged.push(item);
    }
  }
  return merged as Abi;
}

export async function startTokenFixture(): Promise<TokenFixture> {
  const chain = await startTestChain();
  const { publicClient } = chain;
  const write = async (
    from: number,
    address: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[] = [],
  ) => {
    const wallet = chain.wallets[from];
    const { request } = await publicClient.simulateContract({
      account: wallet.account,
      address,
      abi,
      functionName,
      args,
    } as never);
    const gas = await publicClient.estimateContractGas(request as never);
    // Checkpointing features (voting power, historical balances) cost a fresh slot (~22k gas) when the block is mined
    // in a later second than the estimate's: a proportional margin alone is too little for a small call.
    const hash = await wallet.writeContract({ ...(request as object), gas: (gas * 13n) / 10n + 50_000n } as never);
    const rcpt = await publicClient.waitForTransactionReceipt({ hash });
    if (rcpt.status !== "success") throw new Error(`${functionName} reverted on chain (${hash})`);
    return hash;
  };
  const deploy = async (name: string, args: readonly unknown[] = [], from = 0) =>
    getAddress(await chain.deploy(name, args, from));
  const root = await deployPlatformRoot((name, args) => deploy(name, args));
  const { systemFactory } = root;
  const implementations: Record<string, Address> = { SystemFactory: systemFactory };
  for (const [slot, spec] of Object.entries(IMPLEMENTATIONS)) {
    implementations[spec.contract] = root.implementations[slot as keyof typeof IMPLEMENTATIONS];
  }
  for (const [id, name] of Object.entries(FEATURES)) implementations[name] = root.features[id];

  const receipt = (hash: Hex) => publicClient.waitForTransactionReceipt({ hash });
  const created = await receipt(
    await write(0, systemFactory, chain.abi("SystemFactory"), "createSystem", [chain.accounts[0]]),
  );
  const [systemCreated] = parseEventLogs({
    abi: chain.abi("SystemFactory"),
    logs: created.logs,
    eventName: "SystemCreated",
  });
  const { system, tokenFactory, accessManager } = (
    systemCreated as unknown as { args: { system: Address; tokenFactory: Address; accessManager: Address } }
  ).args;

  const tokenAbi = mergedAbi(chain, ["Token", ...Object.values(FEATURES), "TokenMockCompliance", "MockERC20"]);
  const factoryAbi = mergedAbi(chain, ["TokenFactory", "Token", ...Object.values(FEATURES), "TokenMockCompliance"]);
  const featureAbi = (id: FeatureId) =>
    mergedAbi(chain, [FEATURES[id], "Token", ...Object.values(FEATURES), "MockERC20"]);

  const events = (abi: Abi, rcpt: TransactionReceipt, eventName: string, address?: Address) =>
    (parseEventLogs({ abi, logs: rcpt.logs, eventName: eventName as never }) as unknown as DecodedLog[])
      .filter((log) => !address || log.address.toLowerCase() === address.toLowerCase())
      .map((log) => log.args);

  return {
    chain,
    system,
    accessManager,
    tokenFactory,
    systemFactory,
    implementations,
    deploy,
    write,
    tokenAbi,
    featureAbi,
    async createToken(options = {}) {
      const hash = await write(options.from ?? 0, tokenFactory, factoryAbi, "createTokenWithFeatures", [
        "equity",
        options.name ?? "Test Token",
        options.symbol ?? "TST",
        options.decimals ?? 18,
        options.features ?? [],
        options.compliance ?? ZERO,
        options.modules ?? [],
      ]);
      const rcpt = await receipt(hash);
      const [tokenCreated] = events(chain.abi("SystemFactory"), rcpt, "TokenCreated");
      const features: Record<string, Address> = {};
      for (const attached of events(chain.abi("SystemFactory"), rcpt, "FeatureAttached")) {
        features[attached.featureId as string] = attached.feature as Address;
      }
      return { token: tokenCreated.token as Address, features, receipt: rcpt };
    },
    receipt,
    async verify(wallet: Address) {
      const registry = (await publicClient.readContract({
        address: system,
        abi: chain.abi("System"),
        functionName: "identityRegistry",
      })) as Address;
      const abi = chain.abi("IdentityRegistry");
      if (await publicClient.readContract({ address: registry, abi, functionName: "contains", args: [wallet] })) return;
      await write(0, registry, abi, "registerWalletIdentity", [wallet, 56]);
    },
    events,
    read<T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) {
      return publicClient.readContract({ address, abi, functionName, args }) as Promise<T>;
    },
    async travel(seconds: number) {
      const latest = await publicClient.getBlock();
      const timestamp = latest.timestamp + BigInt(seconds);
      await chain.testClient.setNextBlockTimestamp({ timestamp });
      await chain.testClient.mine({ blocks: 1 });
      return timestamp;
    },
    async now() {
      return (await publicClient.getBlock()).timestamp;
    },
  };
}

/** Asserts that `action` reverts with the custom error `errorName` (and, when given, exactly these args). */

export const encode = {
  none: "0x" as Hex,
  maturityRedemption: (maturityDate: bigint, denominationAsset: Address, treasury: Address, faceValue: bigint) =>
    encodeAbiParameters(
      [{ type: "uint256" }, { type: "address" }, { type: "address" }, { type: "uint256" }],
      [maturityDate, denominationAsset, treasury, faceValue],
    ),
  fixedTreasuryYield: (rate: bigint, interval: string, treasury: Address, denominationAsset: Address) =>
    encodeAbiParameters(
      [{ type: "uint256" }, { type: "string" }, { type: "address" }, { type: "address" }],
      [rate, interval, treasury, denominationAsset],
    ),
  aumFee: (feeBps: bigint, recipient: Address) =>
    encodeAbiParameters([{ type: "uint256" }, { type: "address" }], [feeBps, recipient]),
  transactionFee: (mintFeeBps: bigint, burnFeeBps: bigint, transferFeeBps: bigint, recipient: Address) =>
    encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "address" }],
      [mintFeeBps, burnFeeBps, transferFeeBps, recipient],
    ),
  externalTransactionFee: (
    feeToken: Address,
    mintFeeAmount: bigint,
    burnFeeAmount: bigint,
    transferFeeAmount: bigint,
    recipient: Address,
  ) =>
    encodeAbiParameters(
      [{ type: "address" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "address" }],
      [feeToken, mintFeeAmount, burnFeeAmount, transferFeeAmount, recipient],
    ),
  conversion: (terms: {
    targetToken: Address;
    conversionMinter: Address;
    denominationAsset: Address;
    discountBps: bigint;
    capPricePerShareWad: bigint;
    conversionWindowStart: bigint;
    conversionWindowEnd: bigint;
    minConversionAmount: bigint;
    partialAllowed: boolean;
  }) =>
    encodeAbiParameters(
      [
        { type: "address" },
        { type: "address" },
        { type: "address" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "bool" },
      ],
      [
        terms.targetToken,
        terms.conversionMinter,
        terms.denominationAsset,
        terms.discountBps,
        terms.capPricePerShareWad,
        terms.conversionWindowStart,
        terms.conversionWindowEnd,
        terms.minConversionAmount,
        terms.partialAllowed,
      ],
    ),
};

export { EIP170_LIMIT, expectRevert, role } from "../support/chain.ts";
