// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {FixedYieldSchedule} from "./FixedYieldSchedule.sol";
import {IAddonRegistryInstances} from "./IAddonRegistryInstances.sol";

/// @notice The "fixed-yield-schedule" addon of a system (cloned by its AddonRegistry): creates FixedYieldSchedule
/// clones, the caller being the owner, and announces each with its terms. Intervals by name: DAILY (1 d), WEEKLY
/// (7 d), MONTHLY (30 d), QUARTERLY (91 d), ANNUALLY (365 d).
contract FixedYieldScheduleFactory is Initializable {
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

    error FixedYieldScheduleFactoryNoImplementation();
    error FixedYieldUnknownInterval(string interval);

    address public addonRegistry;

    constructor() {
        _disableInitializers();
    }

    function initialize(address addonRegistry_) external initializer {
        addonRegistry = addonRegistry_;
    }

    function create(
        address token,
        uint256 rateBps,
        string calldata interval,
        uint64 startDate,
        uint64 endDate,
        address denominationAsset
    ) external returns (address schedule) {
        address implementation = IAddonRegistryInstances(addonRegistry).instanceImplementationOf(address(this));
        if (implementation == address(0)) revert FixedYieldScheduleFactoryNoImplementation();
        uint256 seconds_ = intervalSeconds(interval);
        schedule = Clones.clone(implementation);
        FixedYieldSchedule(schedule).initialize(token, rateBps, seconds_, startDate, endDate, denominationAsset, msg.sender);
        emit FixedYieldScheduleCreated(
            schedule, msg.sender, token, denominationAsset, rateBps, interval, seconds_, startDate, endDate
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

    function version() external pure returns (uint256) {
        return 1;
    }
}
