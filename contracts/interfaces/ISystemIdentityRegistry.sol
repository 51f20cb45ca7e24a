// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The one system read a token makes: where its identity registry lives.
interface ISystemIdentityRegistry {
    function identityRegistry() external view returns (address);
}
