// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Role ids the identity layer checks on the system's access control; bytes32 of keccak256(name).
library IdentityRoles {
    /// Registers wallets in the identity registry and creates identities through the factory.
    bytes32 internal constant IDENTITY_MANAGER_ROLE = keccak256("IDENTITY_MANAGER_ROLE");
    /// Manages trusted issuers, topic schemes and per-subject issuer registries.
    bytes32 internal constant CLAIM_POLICY_MANAGER_ROLE = keccak256("CLAIM_POLICY_MANAGER_ROLE");
    /// Rewires the identity contracts (storage binding, registry pointers); same id as SystemRoles.SYSTEM_MANAGER_ROLE.
    bytes32 internal constant SYSTEM_MANAGER_ROLE = keccak256("SYSTEM_MANAGER_ROLE");
}
