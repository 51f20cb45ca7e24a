// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {ComplianceModuleBase} from "./ComplianceModuleBase.sol";

/// @notice capital-raise-limit: caps the amount issued (minted, raw units) in total and/or per period.
/// params: abi.encode(uint256 maxTotal, uint256 periodLimit, uint64 periodLength)
///   maxTotal: cap on everything minted since the module was added (0 = none);
///   periodLimit: cap on what is minted within one period (0 = none); periods are fixed windows of
///   periodLength seconds aligned to the Unix epoch (86400 = UTC days); periodLength must be > 0
///   exactly when periodLimit is.
/// At least one limit must be set. Burns do not give capacity back. Only mints are checked.
contract CapitalRaiseLimitModule is ComplianceModuleBase {
    struct Limits {
        uint256 maxTotal;
        uint256 periodLimit;
        uint64 periodLength;
    }

    struct Raised {
        uint256 total;
        uint256 inPeriod;
        uint64 periodLength;
        uint64 periodIndex;
    }

    mapping(address token => Limits) private _limits;
    mapping(bytes32 scope => Raised) private _raised;

    error NoLimitSet();
    error InvalidPeriod(uint256 periodLimit, uint64 periodLength);

    function typeId() public pure virtual override returns (string memory) {
        return "capital-raise-limit";
    }

    function check(address token, address from, address, uint256 amount)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (from != address(0)) return (true, "");
        Limits memory limits = _limits[token];
        (uint256 total, uint256 inPeriod) = raisedOf(token);
        if (limits.maxTotal != 0 && total + amount > limits.maxTotal) {
            return (false, string.concat("total raise limit ", Strings.toString(limits.maxTotal), " exceeded"));
        }
        if (limits.periodLimit != 0 && inPeriod + amount > limits.periodLimit) {
            return (false, string.concat("period raise limit ", Strings.toString(limits.periodLimit), " exceeded"));
        }
        return (true, "");
    }

    /// Minted since the module was added, and within the current period (0 without a period limit).
    function raisedOf(address token) public view returns (uint256 total, uint256 inPeriod) {
        Raised storage raised = _raised[_scope(token)];
        uint64 length = _limits[token].periodLength;
        total = raised.total;
        if (length != 0 && raised.periodLength == length && raised.periodIndex == _periodIndex(length)) {
            inPeriod = raised.inPeriod;
        }
    }

    function limitsOf(address token) external view returns (Limits memory) {
        return _limits[token];
    }

    function _clear(address token) internal override {
        delete _limits[token];
    }

    function _configure(address token, bytes calldata params) internal override {
        (uint256 maxTotal, uint256 periodLimit, uint64 periodLength) = abi.decode(params, (uint256, uint256, uint64));
        if (maxTotal == 0 && periodLimit == 0) revert NoLimitSet();
        if ((periodLimit == 0) != (periodLength == 0)) revert InvalidPeriod(periodLimit, periodLength);
        _limits[token] = Limits(maxTotal, periodLimit, periodLength);
    }

    function _afterTransfer(address token, address from, address, uint256 amount) internal override {
        if (from != address(0)) return;
        (, uint256 inPeriod) = raisedOf(token);
        Raised storage raised = _raised[_scope(token)];
        uint64 length = _limits[token].periodLength;
        raised.total += amount;
        raised.inPeriod = inPeriod + amount;
        raised.periodLength = length;
        raised.periodIndex = length == 0 ? 0 : _periodIndex(length);
    }

    function _periodIndex(uint64 length) private view returns (uint64) {
        return uint64(block.timestamp / length);
    }
}
