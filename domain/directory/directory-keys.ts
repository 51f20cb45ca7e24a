// The directory's entry names (contracts/system/DirectoryKeys.sol): the spec's field names, grouped as the spec
// nests them. An entry's on-chain key is keccak256 of its name; the index stores the name.
import { type Hex, keccak256, stringToHex } from "viem";

export const DIRECTORY_FIELDS = [
  "systemImplementation",
  "systemAccessManagerImplementation",
  "forwarder",
  "systemFactory",
  "identityFactory",
  "identityFactoryImplementation",
] as const;

/** The spec's `identityImplementations` group. */
export const IDENTITY_IMPLEMENTATION_FIELDS = ["identityImplementation", "contractIdentityImplementation"] as const;

/** The spec's `systemImplementations` group. */
export const SYSTEM_IMPLEMENTATION_FIELDS = [
  "complianceImplementation",
  "identityRegistryImplementation",
  "identityRegistryStorageImplementation",
  "trustedIssuersRegistryImplementation",
  "trustedIssuersMetaRegistryImplementation",
  "topicSchemeRegistryImplementation",
  "tokenAccessManagerImplementation",
  "tokenFactoryRegistryImplementation",
  "complianceModuleRegistryImplementation",
  "addonRegistryImplementation",
  "identityVerificationComplianceModule",
  "externalTokenRegistryImplementation",
] as const;

/** Not fields of the spec: the system's registry instances, from which the type catalogues are read. */
export const DIRECTORY_LINKS = [
  "tokenFactoryRegistry",
  "complianceModuleRegistry",
  "addonRegistry",
  "externalTokenRegistry",
] as const;

export const DIRECTORY_KEYS = [
  ...DIRECTORY_FIELDS,
  ...IDENTITY_IMPLEMENTATION_FIELDS,
  ...SYSTEM_IMPLEMENTATION_FIELDS,
  ...DIRECTORY_LINKS,
] as const;
export type DirectoryKey = (typeof DIRECTORY_KEYS)[number];

const NAME_OF_HASH = new Map<string, DirectoryKey>(DIRECTORY_KEYS.map((name) => [keccak256(stringToHex(name)), name]));

/** The entry name of an on-chain key (keccak256 of the name); undefined for a key the platform does not know. */
export function directoryKeyName(key: Hex): DirectoryKey | undefined {
  return NAME_OF_HASH.get(key.toLowerCase());
}
