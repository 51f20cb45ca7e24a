// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Role ids of a system; bytes32 of keccak256(name) as OpenZeppelin does.
library SystemRoles {
    bytes32 internal constant SYSTEM_MANAGER_ROLE = keccak256("SYSTEM_MANAGER_ROLE");
    bytes32 internal constant TOKEN_MANAGER_ROLE = keccak256("TOKEN_MANAGER_ROLE");
}
