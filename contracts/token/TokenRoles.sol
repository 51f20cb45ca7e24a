// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Role ids of a token.
library TokenRoles {
    bytes32 internal constant SUPPLY_MANAGEMENT_ROLE = keccak256("SUPPLY_MANAGEMENT_ROLE");
    bytes32 internal constant CUSTODIAN_ROLE = keccak256("CUSTODIAN_ROLE");
    bytes32 internal constant GOVERNANCE_ROLE = keccak256("GOVERNANCE_ROLE");
    bytes32 internal constant EMERGENCY_ROLE = keccak256("EMERGENCY_ROLE");
}
