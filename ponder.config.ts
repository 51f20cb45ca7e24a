// The Ledger Index: Ponder indexes the platform's own contracts, found from each chain's root factory's events.
import { createConfig, factory, mergeAbis } from "ponder";
import { type Address, getAbiItem, parseAbi, zeroAddress } from "viem";
import { AddonRegistryAbi } from "./abis/AddonRegistry";
import { ComplianceAbi } from "./abis/Compliance";
import { ComplianceModuleRegistryAbi } from "./abis/ComplianceModuleRegistry";
import { ADDON_INSTANCE_ABIS, FEATURE_ABIS } from "./abis/catalogue";
import { DirectoryAbi } from "./abis/Directory";
import { EntryPointAbi } from "./abis/EntryPoint";
import { ExchangeRateFeedAbi } from "./abis/ExchangeRateFeed";
import { ExternalTokenRegistryAbi } from "./abis/ExternalTokenRegistry";
import { IdentityAbi } from "./abis/Identity";
import { IdentityRegistryAbi } from "./abis/IdentityRegistry";
import { SystemAccessManagerAbi } from "./abis/SystemAccessManager";
import { SystemFactoryAbi } from "./abis/SystemFactory";
import { TokenAbi } from "./abis/Token";
import { TokenFactoryRegistryAbi } from "./abis/TokenFactoryRegistry";
import { TopicSchemeRegistryAbi } from "./abis/TopicSchemeRegistry";
import { TrustedIssuersRegistryAbi } from "./abis/TrustedIssuersRegistry";
import { WeightedMultisigAccountAbi } from "./abis/WeightedMultisigAccount";
import { WeightedMultisigAccountFactoryAbi } from "./abis/WeightedMultisigAccountFactory";
import { type IndexedDeployment, ponderRpc } from "./src/index-chains";
import { indexerEnv } from "./src/indexer-env";

// The supervisor passes each chain's deployment manifest and RPC URL (PONDER_CHAINS). Every contract is indexed on
// every chain: on each, from its own root and start block.
const env = indexerEnv();
const indexed = env.chains;
const chainName = (deployment: IndexedDeployment) => `chain${deployment.chainId}`;

/** A contract's address and start block on each chain, from that chain's deployment. */
const onEveryChain = (address: (deployment: IndexedDeployment) => Address | Address[] | ReturnType<typeof factory>) =>
  Object.fromEntries(
    indexed.map(({ deployment }) => [
      chainName(deployment),
      { address: address(deployment), startBlock: deployment.startBlock },
    ]),
  ) as Record<string, { address: Address | Address[] | ReturnType<typeof factory>; startBlock: number }>;

/** The chain's EntryPoints (older manifests name v0.8 only, or none). */
const entryPoints = (deployment: IndexedDeployment): Address[] => {
  const found = [deployment.entryPoint, deployment.entryPointV07].filter((a): a is Address => a !== undefined);
  return found.length > 0 ? found : [zeroAddress];
};

/** A contract announced by an event of each chain's root. */
const fromRoot = (event: RootEvent, parameter: string) =>
  onEveryChain((deployment) =>
    factory({
      address: deployment.systemFactory,
      event: getAbiItem({ abi: SystemFactoryAbi, name: event }),
      parameter: parameter as never,
    }),
  );

type RootEvent =
  | "TokenCreated"
  | "FeatureAttached"
  | "SystemCreated"
  | "IdentityCreated"
  | "SystemContractsCreated"
  | "ExchangeRateFeedCreated"
  | "AddonInstanceCreated";

/** The events of an external (OpenZeppelin-style) ERC-20 the index follows. */
const EXTERNAL_TOKEN_EVENTS = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Paused(address account)",
  "event Unpaused(address account)",
]);

export default createConfig({
  database: { kind: "postgres", connectionString: env.databaseUrl },
  chains: Object.fromEntries(
    indexed.map((source) => [
      chainName(source.deployment),
      {
        id: source.deployment.chainId,
        rpc: ponderRpc(source),
        // New blocks pushed (eth_subscribe newHeads) rather than polled: no idle requests against Ponder's paced RPC
        // budget, and a block is indexed as soon as it is made. Polling remains the fallback.
        ws: source.wsUrl || undefined,
        pollingInterval: env.pollingIntervalMs,
        disableCache: source.disableCache,
      },
    ]),
  ),
  contracts: {
    SystemFactory: { abi: SystemFactoryAbi, chain: onEveryChain((d) => d.systemFactory) },
    Token: { abi: TokenAbi, chain: fromRoot("TokenCreated", "token") },
    // Every feature instance: parameter updates and the features' own events (redemptions, fees, ...): the ABI of
    // every feature in the catalogue (abis/catalogue.ts, generated).
    TokenFeature: { abi: mergeAbis(FEATURE_ABIS), chain: fromRoot("FeatureAttached", "feature") },
    // Each system's compliance engine: module registrations and the modules in force per token.
    Compliance: { abi: ComplianceAbi, chain: fromRoot("SystemCreated", "compliance") },
    // Every identity any system's factory created (wallet or contract): its claims, and revocations it issues.
    Identity: { abi: IdentityAbi, chain: fromRoot("IdentityCreated", "identity") },
    // Each system's identity registry: registrations, countries.
    IdentityRegistry: { abi: IdentityRegistryAbi, chain: fromRoot("SystemCreated", "identityRegistry") },
    // Each system's trusted issuers and claim topics, and its other contracts by role: fields of the root's
    // SystemContractsCreated tuple.
    TrustedIssuersRegistry: {
      abi: TrustedIssuersRegistryAbi,
      chain: fromRoot("SystemContractsCreated", "contracts.trustedIssuersRegistry"),
    },
    TopicSchemeRegistry: {
      abi: TopicSchemeRegistryAbi,
      chain: fromRoot("SystemContractsCreated", "contracts.topicSchemeRegistry"),
    },
    // Each system's directory and type registries (token types, compliance module types, addon types and addons).
    Directory: { abi: DirectoryAbi, chain: fromRoot("SystemContractsCreated", "contracts.directory") },
    TokenFactoryRegistry: {
      abi: TokenFactoryRegistryAbi,
      chain: fromRoot("SystemContractsCreated", "contracts.tokenFactoryRegistry"),
    },
    ComplianceModuleRegistry: {
      abi: ComplianceModuleRegistryAbi,
      chain: fromRoot("SystemContractsCreated", "contracts.complianceModuleRegistry"),
    },
    AddonRegistry: { abi: AddonRegistryAbi, chain: fromRoot("SystemContractsCreated", "contracts.addonRegistry") },
    // Each system's external token registry: registrations (with the token's metadata), type updates, removals.
    ExternalTokenRegistry: {
      abi: ExternalTokenRegistryAbi,
      chain: fromRoot("SystemContractsCreated", "contracts.externalTokenRegistry"),
    },
    // Every registered external token's supply and pause changes. The registries are themselves found by a factory
    // and Ponder's factory() goes one level deep, so the registration event is matched from any emitter; the
    // handlers only update tokens a system's registry registered (src/ExternalToken.ts).
    ExternalToken: {
      abi: EXTERNAL_TOKEN_EVENTS,
      chain: onEveryChain(() =>
        factory({
          event: getAbiItem({ abi: ExternalTokenRegistryAbi, name: "ExternalTokenRegistered" }),
          parameter: "token",
        }),
      ),
    },
    // Each system's access manager: role grants and revocations.
    SystemAccessManager: {
      abi: SystemAccessManagerAbi,
      chain: fromRoot("SystemContractsCreated", "contracts.accessManager"),
    },
    // Every system's exchange rate feeds (announced by the root): their rounds.
    ExchangeRateFeed: { abi: ExchangeRateFeedAbi, chain: fromRoot("ExchangeRateFeedCreated", "feed") },
    // Every addon instance (announced by the root, whichever system's addon created it): each type's own events, the
    // instance ABI of every add-on in ADDON_CONTRACTS (abis/catalogue.ts, generated).
    AddonInstance: {
      abi: mergeAbis(ADDON_INSTANCE_ABIS),
      chain: fromRoot("AddonInstanceCreated", "instance"),
    },
    // ERC-4337: both EntryPoints' (v0.8, v0.7: the same events) user operations and deposits, the smart wallets'
    // factory and each account it made. A manifest without them indexes nothing for them: no contract emits from the
    // zero address.
    EntryPoint: { abi: EntryPointAbi, chain: onEveryChain(entryPoints) },
    SmartAccountFactory: {
      abi: WeightedMultisigAccountFactoryAbi,
      chain: onEveryChain((d) => d.smartAccountFactory ?? zeroAddress),
    },
    SmartWallet: {
      abi: WeightedMultisigAccountAbi,
      chain: onEveryChain((d) =>
        factory({
          address: d.smartAccountFactory ?? zeroAddress,
          event: getAbiItem({ abi: WeightedMultisigAccountFactoryAbi, name: "AccountCreated" }),
          parameter: "account",
        }),
      ),
    },
  },
});
