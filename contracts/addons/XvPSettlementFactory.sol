// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IAddonRegistryInstances} from "./IAddonRegistryInstances.sol";
import {XvPSettlement} from "./XvPSettlement.sol";

/// @notice The "xvp-settlement" addon of a system: a clone the system's AddonRegistry makes (its instance
/// implementation read from the registry at each creation, so a type update reaches the next settlement), which
/// creates XvPSettlement clones and announces each with everything the index needs.
contract XvPSettlementFactory is Initializable {
    event XvPSettlementCreated(
        address indexed settlement,
        address indexed creator,
        XvPSettlement.Flow[] flows,
        uint64 cutoff,
        bytes32 hashlock
    );

    error XvPSettlementFactoryNoImplementation();

    address public addonRegistry;

    constructor() {
        _disableInitializers();
    }

    /// Called by the AddonRegistry in the clone's creation (`initData`).
    function initialize(address addonRegistry_) external initializer {
        addonRegistry = addonRegistry_;
    }

    function create(XvPSettlement.Flow[] calldata flows, uint64 cutoff, bytes32 hashlock)
        external
        returns (address settlement)
    {
        address implementation = IAddonRegistryInstances(addonRegistry).instanceImplementationOf(address(this));
        if (implementation == address(0)) revert XvPSettlementFactoryNoImplementation();
        settlement = Clones.clone(implementation);
        XvPSettlement(settlement).initialize(flows, cutoff, hashlock, msg.sender);
        emit XvPSettlementCreated(settlement, msg.sender, flows, cutoff, hashlock);
    }

    function version() external pure returns (uint256) {
        return 1;
    }
}
