// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Role ids of a system's access manager: keccak256 of the role name, as OpenZeppelin does.
/// DEFAULT_ADMIN_ROLE stays OpenZeppelin's 0x00 so AccessControl's admin rules apply unchanged.
library SystemAccessRoles {
    bytes32 internal constant DEFAULT_ADMIN_ROLE = 0x00;

    // People (granted to accounts of the organisation).
    bytes32 internal constant SYSTEM_MANAGER_ROLE = keccak256("SYSTEM_MANAGER_ROLE");
    bytes32 internal constant TOKEN_MANAGER_ROLE = keccak256("TOKEN_MANAGER_ROLE");
    bytes32 internal constant IDENTITY_MANAGER_ROLE = keccak256("IDENTITY_MANAGER_ROLE");
    bytes32 internal constant COMPLIANCE_MANAGER_ROLE = keccak256("COMPLIANCE_MANAGER_ROLE");
    bytes32 internal constant ADDON_MANAGER_ROLE = keccak256("ADDON_MANAGER_ROLE");
    bytes32 internal constant CLAIM_POLICY_MANAGER_ROLE = keccak256("CLAIM_POLICY_MANAGER_ROLE");
    bytes32 internal constant CLAIM_ISSUER_ROLE = keccak256("CLAIM_ISSUER_ROLE");
    bytes32 internal constant AUDITOR_ROLE = keccak256("AUDITOR_ROLE");
    bytes32 internal constant GAS_MANAGER_ROLE = keccak256("GAS_MANAGER_ROLE");

    // System modules (granted to the system's own contracts, never to people).
    /// The system's registries and engines; may act for any manager role inside the system.
    bytes32 internal constant SYSTEM_MODULE_ROLE = keccak256("SYSTEM_MODULE_ROLE");
    /// Token factories recorded by the token factory registry (admin: SYSTEM_MODULE_ROLE).
    bytes32 internal constant TOKEN_FACTORY_MODULE_ROLE = keccak256("TOKEN_FACTORY_MODULE_ROLE");
    /// Addon factories and singletons created by the addon registry (admin: SYSTEM_MODULE_ROLE).
    bytes32 internal constant ADDON_FACTORY_MODULE_ROLE = keccak256("ADDON_FACTORY_MODULE_ROLE");
    /// Contracts allowed to write the identity registry (identity factory, token factories).
    bytes32 internal constant IDENTITY_REGISTRY_MODULE_ROLE = keccak256("IDENTITY_REGISTRY_MODULE_ROLE");
}
