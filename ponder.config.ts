// The Ledger Index: Ponder indexes the platform's own contracts, found from the root factory's events.
import { readFileSync } from "node:fs";
import { createConfig, factory, mergeAbis } from "ponder";
import { getAbiItem, parseAbi, zeroAddress } from "viem";
import { AddonRegistryAbi } from "./abis/AddonRegistry";
import { AumFeeFeatureAbi } from "./abis/AumFeeFeature";
import { ComplianceAbi } from "./abis/Compliance";
import { ComplianceModuleRegistryAbi } from "./abis/ComplianceModuleRegistry";
import { ConversionFeatureAbi } from "./abis/ConversionFeature";
import { ConversionMinterFeatureAbi } from "./abis/ConversionMinterFeature";
import { DirectoryAbi } from "./abis/Directory";
import { EntryPointAbi } from "./abis/EntryPoint";
import { ExchangeRateFeedAbi } from "./abis/ExchangeRateFeed";
import { ExternalTokenRegistryAbi } from "./abis/ExternalTokenRegistry";
import { ExternalTransactionFeeFeatureAbi } from "./abis/ExternalTransactionFeeFeature";
import { FixedTreasuryYieldFeatureAbi } from "./abis/FixedTreasuryYieldFeature";
import { FixedYieldScheduleAbi } from "./abis/FixedYieldSchedule";
import { IdentityAbi } from "./abis/Identity";
import { IdentityRegistryAbi } from "./abis/IdentityRegistry";
import { MaturityRedemptionFeatureAbi } from "./abis/MaturityRedemptionFeature";
import { SystemAccessManagerAbi } from "./abis/SystemAccessManager";
import { SystemFactoryAbi } from "./abis/SystemFactory";
import { TokenAbi } from "./abis/Token";
import { TokenFactoryRegistryAbi } from "./abis/TokenFactoryRegistry";
import { TokenSaleAbi } from "./abis/TokenSale";
import { TopicSchemeRegistryAbi } from "./abis/TopicSchemeRegistry";
import { TransactionFeeAccountingFeatureAbi } from "./abis/TransactionFeeAccountingFeature";
import { TransactionFeeFeatureAbi } from "./abis/TransactionFeeFeature";
import { TrustedIssuersRegistryAbi } from "./abis/TrustedIssuersRegistry";
import { VotingPowerFeatureAbi } from "./abis/VotingPowerFeature";
import { WeightedMultisigAccountAbi } from "./abis/WeightedMultisigAccount";
import { WeightedMultisigAccountFactoryAbi } from "./abis/WeightedMultisigAccountFactory";
import { XvPSettlementAbi } from "./abis/XvPSettlement";
import { ponderRpcUrl } from "./src/rpc-url";

interface IndexedDeployment {
  chainId: number;
  systemFactory: `0x${string}`;
  /** ERC-4337 EntryPoint v0.8 and the smart wallets' factory: absent from older manifests. */
  entryPoint?: `0x${string}`;
  smartAccountFactory?: `0x${string}`;
  startBlock: number;
}

// The supervisor passes the deployment manifest it wrote (or was given) and the chain's RPC URL.
const manifestPath = process.env.DEPLOYMENT_MANIFEST;
const deployment: IndexedDeployment = manifestPath
  ? JSON.parse(readFileSync(manifestPath, "utf8"))
  : { chainId: 31337, systemFactory: "0x0000000000000000000000000000000000000000", startBlock: 0 };

const chain = `chain${deployment.chainId}`;
const root = deployment.systemFactory;
// A manifest without them indexes nothing for them: no contract emits from the zero address.
const entryPoint = deployment.entryPoint ?? zeroAddress;
const smartAccountFactory = deployment.smartAccountFactory ?? zeroAddress;

/** Each system's contract of one role: a field of the root's SystemContractsCreated tuple. */
const systemContractsField = (
  parameter: `contracts.${"accessManager" | "directory" | "tokenFactoryRegistry" | "complianceModuleRegistry" | "addonRegistry" | "externalTokenRegistry"}`,
) =>
  factory({
    address: root,
    event: getAbiItem({ abi: SystemFactoryAbi, name: "SystemContractsCreated" }),
    parameter,
  });

/** The events of an external (OpenZeppelin-style) ERC-20 the index follows. */
const EXTERNAL_TOKEN_EVENTS = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Paused(address account)",
  "event Unpaused(address account)",
]);

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL },
  chains: {
    [chain]: {
      id: deployment.chainId,
      rpc: ponderRpcUrl(),
      // New blocks pushed (eth_subscribe newHeads) rather than polled: no idle requests against Ponder's paced RPC
      // budget, and a block is indexed as soon as it is made. Polling remains the fallback.
      ws: process.env.PONDER_WS_URL || undefined,
      pollingInterval: Number(process.env.PONDER_POLLING_INTERVAL_MS ?? 250),
      disableCache: deployment.chainId === 31337,
    },
  },
  contracts: {
    SystemFactory: { abi: SystemFactoryAbi, chain, address: root, startBlock: deployment.startBlock },
    Token: {
      abi: TokenAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "TokenCreated" }),
        parameter: "token",
      }),
      startBlock: deployment.startBlock,
    },
    // Every feature instance: parameter updates and the features' own events (redemptions, fees, ...).
    TokenFeature: {
      abi: mergeAbis([
        MaturityRedemptionFeatureAbi,
        FixedTreasuryYieldFeatureAbi,
        AumFeeFeatureAbi,
        TransactionFeeFeatureAbi,
        TransactionFeeAccountingFeatureAbi,
        ExternalTransactionFeeFeatureAbi,
        ConversionFeatureAbi,
        ConversionMinterFeatureAbi,
        VotingPowerFeatureAbi,
      ]),
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "FeatureAttached" }),
        parameter: "feature",
      }),
      startBlock: deployment.startBlock,
    },
    // Each system's compliance engine: module registrations and the modules in force per token.
    Compliance: {
      abi: ComplianceAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "SystemCreated" }),
        parameter: "compliance",
      }),
      startBlock: deployment.startBlock,
    },
    // Every identity any system's factory created (wallet or contract): its claims, and revocations it issues.
    Identity: {
      abi: IdentityAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "IdentityCreated" }),
        parameter: "identity",
      }),
      startBlock: deployment.startBlock,
    },
    // Each system's identity registry: registrations, countries.
    IdentityRegistry: {
      abi: IdentityRegistryAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "SystemCreated" }),
        parameter: "identityRegistry",
      }),
      startBlock: deployment.startBlock,
    },
    // Each system's trusted issuers and claim topics (a field of SystemContractsCreated's tuple).
    TrustedIssuersRegistry: {
      abi: TrustedIssuersRegistryAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "SystemContractsCreated" }),
        parameter: "contracts.trustedIssuersRegistry",
      }),
      startBlock: deployment.startBlock,
    },
    TopicSchemeRegistry: {
      abi: TopicSchemeRegistryAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "SystemContractsCreated" }),
        parameter: "contracts.topicSchemeRegistry",
      }),
      startBlock: deployment.startBlock,
    },
    // Each system's directory and type registries (token types, compliance module types, addon types and addons).
    Directory: {
      abi: DirectoryAbi,
      chain,
      address: systemContractsField("contracts.directory"),
      startBlock: deployment.startBlock,
    },
    TokenFactoryRegistry: {
      abi: TokenFactoryRegistryAbi,
      chain,
      address: systemContractsField("contracts.tokenFactoryRegistry"),
      startBlock: deployment.startBlock,
    },
    ComplianceModuleRegistry: {
      abi: ComplianceModuleRegistryAbi,
      chain,
      address: systemContractsField("contracts.complianceModuleRegistry"),
      startBlock: deployment.startBlock,
    },
    AddonRegistry: {
      abi: AddonRegistryAbi,
      chain,
      address: systemContractsField("contracts.addonRegistry"),
      startBlock: deployment.startBlock,
    },
    // Each system's external token registry: registrations (with the token's metadata), type updates, removals.
    ExternalTokenRegistry: {
      abi: ExternalTokenRegistryAbi,
      chain,
      address: systemContractsField("contracts.externalTokenRegistry"),
      startBlock: deployment.startBlock,
    },
    // Every registered external token's supply and pause changes. The registries are themselves found by a factory
    // and Ponder's factory() goes one level deep, so the registration event is matched from any emitter; the
    // handlers only update tokens a system's registry registered (src/ExternalToken.ts).
    ExternalToken: {
      abi: EXTERNAL_TOKEN_EVENTS,
      chain,
      address: factory({
        event: getAbiItem({ abi: ExternalTokenRegistryAbi, name: "ExternalTokenRegistered" }),
        parameter: "token",
      }),
      startBlock: deployment.startBlock,
    },
    // Each system's access manager: role grants and revocations.
    SystemAccessManager: {
      abi: SystemAccessManagerAbi,
      chain,
      address: systemContractsField("contracts.accessManager"),
      startBlock: deployment.startBlock,
    },
    // Every system's exchange rate feeds (announced by the root): their rounds.
    ExchangeRateFeed: {
      abi: ExchangeRateFeedAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "ExchangeRateFeedCreated" }),
        parameter: "feed",
      }),
      startBlock: deployment.startBlock,
    },
    // Every addon instance (announced by the root, whichever system's addon created it): each type's own events.
    AddonInstance: {
      abi: mergeAbis([XvPSettlementAbi, TokenSaleAbi, FixedYieldScheduleAbi]),
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "AddonInstanceCreated" }),
        parameter: "instance",
      }),
      startBlock: deployment.startBlock,
    },
    // ERC-4337: the EntryPoint's user operations and deposits, the smart wallets' factory and each account it made.
    EntryPoint: { abi: EntryPointAbi, chain, address: entryPoint, startBlock: deployment.startBlock },
    SmartAccountFactory: {
      abi: WeightedMultisigAccountFactoryAbi,
      chain,
      address: smartAccountFactory,
      startBlock: deployment.startBlock,
    },
    SmartWallet: {
      abi: WeightedMultisigAccountAbi,
      chain,
      address: factory({
        address: smartAccountFactory,
        event: getAbiItem({ abi: WeightedMultisigAccountFactoryAbi, name: "AccountCreated" }),
        parameter: "account",
      }),
      startBlock: deployment.startBlock,
    },
  },
});
