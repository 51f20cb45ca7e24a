// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IAddonInstanceAnnouncer} from "./IAddonInstanceAnnouncer.sol";
import {IAddonRegistryInstances} from "./IAddonRegistryInstances.sol";

/// @notice What every addon factory shares: it is a clone its system's AddonRegistry makes
/// (`initialize(registry, announcer)` is the registry's `initData`), and each instance it creates is a clone of the
/// implementation the registry names at that moment, so a type update reaches the next instance. Each creation is
/// announced to the platform's root (the announcer), so an indexer watching only the root finds every instance.
abstract contract AddonFactory is Initializable {
    error AddonFactoryNoImplementation();

    address public addonRegistry;
    /// The platform root; address 0 (a bare registry, as in contract tests) announces nothing.
    address public announcer;

    constructor() {
        _disableInitializers();
    }

    function initialize(address addonRegistry_, address announcer_) external initializer {
        addonRegistry = addonRegistry_;
        announcer = announcer_;
    }

    function version() external pure returns (uint256) {
        return 1;
    }

    function _newInstance() internal returns (address instance) {
        address implementation = IAddonRegistryInstances(addonRegistry).instanceImplementationOf(address(this));
        if (implementation == address(0)) revert AddonFactoryNoImplementation();
        instance = Clones.clone(implementation);
    }

    /// `params`: the ABI encoding of the factory's own creation event's fields after the instance address.
    function _announce(address instance, bytes memory params) internal {
        if (announcer != address(0)) IAddonInstanceAnnouncer(announcer).announceAddonInstance(instance, params);
    }
}
