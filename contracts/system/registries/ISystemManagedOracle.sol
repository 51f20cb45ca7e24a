// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Answers whether an address belongs to the system (its own contracts, or a token one of its
/// factories created). The System implements it; the external token registry refuses such addresses.
interface ISystemManagedOracle {
    function isSystemManaged(address account) external view returns (bool);
}
