// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AddonFactory} from "./AddonFactory.sol";
import {XvPSettlement} from "./XvPSettlement.sol";

/// @notice The "xvp-settlement" addon of a system: a clone the system's AddonRegistry makes (its instance
/// implementation read from the registry at each creation, so a type update reaches the next settlement), which
/// creates XvPSettlement clones and announces each with everything the index needs.
contract XvPSettlementFactory is AddonFactory {
    event XvPSettlementCreated(
        address indexed settlement,
        address indexed creator,
        XvPSettlement.Flow[] flows,
        uint64 cutoff,
        bytes32 hashlock
    );

    function create(XvPSettlement.Flow[] calldata flows, uint64 cutoff, bytes32 hashlock)
        external
        returns (address settlement)
    {
        settlement = _newInstance();
        XvPSettlement(settlement).initialize(flows, cutoff, hashlock, msg.sender);
        emit XvPSettlementCreated(settlement, msg.sender, flows, cutoff, hashlock);
        _announce(settlement, abi.encode(msg.sender, flows, cutoff, hashlock));
    }
}
