// What a platform root is built from: every implementation, the feature catalogue, the compliance modules and the
// addon types, deployed in order by any deploy function (CREATE2 in production, plain CREATE in tests).
import type { Address } from "viem";
import { FEATURE_CATALOGUE, type FeatureId, TOKEN_FEATURES } from "../../domain/features/catalogue.ts";

/** Implementation slot of ISystemFactory.Implementations → contract name; `forwarder` ones take it as argument. */
export const IMPLEMENTATIONS = {
  system: { contract: "System" },
  accessManager: { contract: "SystemAccessManager", forwarder: true },
  tokenFactory: { contract: "TokenFactory" },
  token: { contract: "Token" },
  compliance: { contract: "Compliance" },
  identityFactory: { contract: "IdentityFactory" },
  identity: { contract: "Identity" },
  contractIdentity: { contract: "ContractIdentity" },
  identityRegistry: { contract: "IdentityRegistry" },
  identityRegistryStorage: { contract: "IdentityRegistryStorage" },
  trustedIssuersRegistry: { contract: "TrustedIssuersRegistry" },
  trustedIssuersMetaRegistry: { contract: "TrustedIssuersMetaRegistry" },
  topicSchemeRegistry: { contract: "TopicSchemeRegistry" },
  directory: { contract: "Directory", forwarder: true },
  tokenFactoryRegistry: { contract: "TokenFactoryRegistry", forwarder: true },
  complianceModuleRegistry: { contract: "ComplianceModuleRegistry", forwarder: true },
  addonRegistry: { contract: "AddonRegistry", forwarder: true },
  externalTokenRegistry: { contract: "ExternalTokenRegistry", forwarder: true },
  exchangeRateFeedRegistry: { contract: "ExchangeRateFeedRegistry", forwarder: true },
} as const;
type ImplementationSlot = keyof typeof IMPLEMENTATIONS | "forwarder";

/** The slots of ISystemFactory.Implementations itself; every other one is in its `systemContracts` (cloned per system). */
const ROOT_SLOTS: readonly ImplementationSlot[] = ["system", "token", "identity", "contractIdentity", "forwarder"];

/** ISystemFactory.Implementations from the flat slots: the root's own, then `systemContracts` (viem encodes by name). */
function implementationsArgument(implementations: Record<ImplementationSlot, Address>) {
  const entries = Object.entries(implementations) as [ImplementationSlot, Address][];
  return {
    ...Object.fromEntries(entries.filter(([slot]) => ROOT_SLOTS.includes(slot))),
    systemContracts: Object.fromEntries(entries.filter(([slot]) => !ROOT_SLOTS.includes(slot))),
  };
}

/** Feature id → contract, from the feature catalogue (its order is the one registered on chain). */
export const FEATURE_CONTRACTS = Object.fromEntries(
  TOKEN_FEATURES.map((id) => [id, FEATURE_CATALOGUE[id].contract]),
) as { [id in FeatureId]: (typeof FEATURE_CATALOGUE)[id]["contract"] };

/** Compliance control type id → module contract (v2 first, then the legacy v1 ids). */
export const MODULE_CONTRACTS = {
  "address-block-list-v2": "AddressBlockListModule",
  "capital-raise-limit": "CapitalRaiseLimitModule",
  "capped-v2": "CappedModule",
  "collateral-v2": "CollateralModule",
  "country-allow-list-v2": "CountryAllowListModule",
  "country-block-list-v2": "CountryBlockListModule",
  "identity-allow-list-v2": "IdentityAllowListModule",
  "identity-block-list-v2": "IdentityBlockListModule",
  "identity-verification-v2": "IdentityVerificationModule",
  "investor-count-v2": "InvestorCountModule",
  "time-lock-v2": "TimeLockModule",
  "transfer-approval-v2": "TransferApprovalModule",
  "country-allow-list": "LegacyCountryAllowListModule",
  "investor-count": "LegacyInvestorCountModule",
  "transfer-approval": "LegacyTransferApprovalModule",
} as const;

/**
 * The add-ons: type id → its factory's and its instances' contracts. Every system registers and creates each; the
 * compile list (compile.ts) and the index's AddonInstance ABIs (abis/catalogue.ts) are derived from it.
 */
export const ADDON_CONTRACTS = {
  "xvp-settlement": { factory: "XvPSettlementFactory", instance: "XvPSettlement" },
  "token-sale": { factory: "TokenSaleFactory", instance: "TokenSale" },
  "fixed-yield-schedule": { factory: "FixedYieldScheduleFactory", instance: "FixedYieldSchedule" },
} as const;

export type DeployFn = (contract: string, args: readonly unknown[]) => Promise<Address>;

export interface PlatformRoot {
  systemFactory: Address;
  implementations: Record<ImplementationSlot, Address>;
  features: Record<string, Address>;
  modules: Record<string, Address>;
  addons: Record<string, { factory: Address; instance: Address }>;
}

/** Deploys (or, with CREATE2, finds) every implementation, then the root that clones them per system. */
export async function deployPlatformRoot(deploy: DeployFn): Promise<PlatformRoot> {
  const forwarder = await deploy("Forwarder", []);
  const implementations = { forwarder } as Record<ImplementationSlot, Address>;
  for (const [slot, spec] of Object.entries(IMPLEMENTATIONS)) {
    implementations[slot as ImplementationSlot] = await deploy(spec.contract, "forwarder" in spec ? [forwarder] : []);
  }
  const features: Record<string, Address> = {};
  for (const [id, contract] of Object.entries(FEATURE_CONTRACTS)) features[id] = await deploy(contract, []);
  const modules: Record<string, Address> = {};
  for (const [id, contract] of Object.entries(MODULE_CONTRACTS)) modules[id] = await deploy(contract, []);
  const addons: Record<string, { factory: Address; instance: Address }> = {};
  for (const [id, { factory, instance }] of Object.entries(ADDON_CONTRACTS))
    addons[id] = { factory: await deploy(factory, []), instance: await deploy(instance, []) };
  const systemFactory = await deploy("SystemFactory", [
    implementationsArgument(implementations),
    {
      featureIds: Object.keys(features),
      features: Object.values(features),
      complianceModules: Object.values(modules),
      addonTypes: Object.keys(addons),
      addonFactories: Object.values(addons).map((addon) => addon.factory),
      addonInstances: Object.values(addons).map((addon) => addon.instance),
    },
  ]);
  return { systemFactory, implementations, features, modules, addons };
}
