// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AddonFactory} from "./AddonFactory.sol";
import {FixedYieldSchedule} from "./FixedYieldSchedule.sol";

/// @notice The "fixed-yield-schedule" addon of a system (cloned by its AddonRegistry): creates FixedYieldSchedule
/// clones, the caller being the owner, and announces each with its terms. Intervals by name: DAILY (1 d), WEEKLY
/// (7 d), MONTHLY (30 d), QUARTERLY (91 d), ANNUALLY (365 d).
contract FixedYieldScheduleFactory is AddonFactory {
    event FixedYieldScheduleCreated(
        address indexed schedule,
        address indexed owner,
        address indexed token,
        address denominationAsset,
        uint256 rateBps,
        string interval,
        uint256 intervalSeconds,
        uint64 startDate,
        uint64 endDate
    );

    error FixedYieldUnknownInterval(string interval);

    function create(
        address token,
        uint256 rateBps,
        string calldata interval,
        uint64 startDate,
        uint64 endDate,
        address denominationAsset
    ) external returns (address schedule) {
        uint256 seconds_ = intervalSeconds(interval);
        schedule = _newInstance();
        FixedYieldSchedule(schedule).initialize(token, rateBps, seconds_, startDate, endDate, denominationAsset, msg.sender);
        emit FixedYieldScheduleCreated(
            schedule, msg.sender, token, denominationAsset, rateBps, interval, seconds_, startDate, endDate
        );
        _announce(
            schedule,
            abi.encode(msg.sender, token, denominationAsset, rateBps, interval, seconds_, startDate, endDate)
        );
    }

    function intervalSeconds(string calldata name) public pure returns (uint256) {
        bytes32 h = keccak256(bytes(name));
        if (h == keccak256("DAILY")) return 1 days;
        if (h == keccak256("WEEKLY")) return 7 days;
        if (h == keccak256("MONTHLY")) return 30 days;
        if (h == keccak256("QUARTERLY")) return 91 days;
        if (h == keccak256("ANNUALLY")) return 365 days;
        revert FixedYieldUnknownInterval(name);
    }
}
