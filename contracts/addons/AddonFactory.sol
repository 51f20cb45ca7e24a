// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IAddonRegistryInstances} from "./IAddonRegistryInstances.sol";

/// @notice What every addon factory shares: it is a clone its system's AddonRegistry makes (`initialize(registry)`
/// is the registry's `initData`), and each instance it creates is a clone of the implementation the registry names
/// at that moment, so a type update reaches the next instance.
abstract contract AddonFactory is Initializable {
    error AddonFactoryNoImplementation();

    address public addonRegistry;

    constructor() {
        _disableInitializers();
    }

    function initialize(address addonRegistry_) external initializer {
        addonRegistry = addonRegistry_;
    }

    function version() external pure returns (uint256) {
        return 1;
    }

    function _newInstance() internal returns (address instance) {
        address implementation = IAddonRegistryInstances(addonRegistry).instanceImplementationOf(address(this));
        if (implementation == address(0)) revert AddonFactoryNoImplementation();
        instance = Clones.clone(implementation);
    }
}
