// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice What an addon factory asks its system's AddonRegistry: the code of the instances it creates.
interface IAddonRegistryInstances {
    function instanceImplementationOf(address addon) external view returns (address);
}
