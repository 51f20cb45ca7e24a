// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Directory entry keys: keccak256 of the spec's field name (e.g. keccak256("forwarder")).
/// The nested groups (identityImplementations, systemImplementations) are flattened: names are unique.
library DirectoryKeys {
    bytes32 internal constant SYSTEM_IMPLEMENTATION = keccak256("systemImplementation");
    bytes32 internal constant SYSTEM_ACCESS_MANAGER_IMPLEMENTATION = keccak256("systemAccessManagerImplementation");
    bytes32 internal constant FORWARDER = keccak256("forwarder");
    bytes32 internal constant SYSTEM_FACTORY = keccak256("systemFactory");
    bytes32 internal constant IDENTITY_FACTORY = keccak256("identityFactory");
    bytes32 internal constant IDENTITY_FACTORY_IMPLEMENTATION = keccak256("identityFactoryImplementation");
    // identityImplementations
    bytes32 internal constant IDENTITY_IMPLEMENTATION = keccak256("identityImplementation");
    bytes32 internal constant CONTRACT_IDENTITY_IMPLEMENTATION = keccak256("contractIdentityImplementation");
    // systemImplementations
    bytes32 internal constant COMPLIANCE_IMPLEMENTATION = keccak256("complianceImplementation");
    bytes32 internal constant IDENTITY_REGISTRY_IMPLEMENTATION = keccak256("identityRegistryImplementation");
    bytes32 internal constant IDENTITY_REGISTRY_STORAGE_IMPLEMENTATION =
        keccak256("identityRegistryStorageImplementation");
    bytes32 internal constant TRUSTED_ISSUERS_REGISTRY_IMPLEMENTATION = keccak256("trustedIssuersRegistryImplementation");
    bytes32 internal constant TRUSTED_ISSUERS_META_REGISTRY_IMPLEMENTATION =
        keccak256("trustedIssuersMetaRegistryImplementation");
    bytes32 internal constant TOPIC_SCHEME_REGISTRY_IMPLEMENTATION = keccak256("topicSchemeRegistryImplementation");
    bytes32 internal constant TOKEN_ACCESS_MANAGER_IMPLEMENTATION = keccak256("tokenAccessManagerImplementation");
    bytes32 internal constant TOKEN_FACTORY_REGISTRY_IMPLEMENTATION = keccak256("tokenFactoryRegistryImplementation");
    bytes32 internal constant COMPLIANCE_MODULE_REGISTRY_IMPLEMENTATION =
        keccak256("complianceModuleRegistryImplementation");
    bytes32 internal constant ADDON_REGISTRY_IMPLEMENTATION = keccak256("addonRegistryImplementation");
    bytes32 internal constant IDENTITY_VERIFICATION_COMPLIANCE_MODULE = keccak256("identityVerificationComplianceModule");
    bytes32 internal constant EXTERNAL_TOKEN_REGISTRY_IMPLEMENTATION = keccak256("externalTokenRegistryImplementation");
    // Links to the system's registry instances, so the type catalogues can be joined from the directory.
    bytes32 internal constant TOKEN_FACTORY_REGISTRY = keccak256("tokenFactoryRegistry");
    bytes32 internal constant COMPLIANCE_MODULE_REGISTRY = keccak256("complianceModuleRegistry");
    bytes32 internal constant ADDON_REGISTRY = keccak256("addonRegistry");
    bytes32 internal constant EXTERNAL_TOKEN_REGISTRY = keccak256("externalTokenRegistry");

    uint256 internal constant COUNT = 24;

    function all() internal pure returns (bytes32[] memory keys) {
        bytes32[COUNT] memory fixedKeys = [
            SYSTEM_IMPLEMENTATION,
            SYSTEM_ACCESS_MANAGER_IMPLEMENTATION,
            FORWARDER,
            SYSTEM_FACTORY,
            IDENTITY_FACTORY,
            IDENTITY_FACTORY_IMPLEMENTATION,
            IDENTITY_IMPLEMENTATION,
            CONTRACT_IDENTITY_IMPLEMENTATION,
            COMPLIANCE_IMPLEMENTATION,
            IDENTITY_REGISTRY_IMPLEMENTATION,
            IDENTITY_REGISTRY_STORAGE_IMPLEMENTATION,
            TRUSTED_ISSUERS_REGISTRY_IMPLEMENTATION,
            TRUSTED_ISSUERS_META_REGISTRY_IMPLEMENTATION,
            TOPIC_SCHEME_REGISTRY_IMPLEMENTATION,
            TOKEN_ACCESS_MANAGER_IMPLEMENTATION,
            TOKEN_FACTORY_REGISTRY_IMPLEMENTATION,
            COMPLIANCE_MODULE_REGISTRY_IMPLEMENTATION,
            ADDON_REGISTRY_IMPLEMENTATION,
            IDENTITY_VERIFICATION_COMPLIANCE_MODULE,
            EXTERNAL_TOKEN_REGISTRY_IMPLEMENTATION,
            TOKEN_FACTORY_REGISTRY,
            COMPLIANCE_MODULE_REGISTRY,
            ADDON_REGISTRY,
            EXTERNAL_TOKEN_REGISTRY
        ];
        keys = new bytes32[](COUNT);
        for (uint256 i = 0; i < COUNT; i++) {
            keys[i] = fixedKeys[i];
        }
    }

    function isKnown(bytes32 key) internal pure returns (bool) {
        bytes32[] memory keys = all();
        for (uint256 i = 0; i < keys.length; i++) {
            if (keys[i] == key) return true;
        }
        return false;
    }
}
