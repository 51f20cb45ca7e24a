// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Checkpoints} from "@openzeppelin/contracts/utils/structs/Checkpoints.sol";
import {FeatureIds} from "./FeatureIds.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice Balance and total-supply checkpoints keyed by block timestamp (ERC-6372 "mode=timestamp").
/// No parameters. A read at timepoint t returns the value at the end of second t, so t must be past.
contract HistoricalBalancesFeature is TokenFeature {
    using Checkpoints for Checkpoints.Trace208;

    mapping(address account => Checkpoints.Trace208) private _balances;
    Checkpoints.Trace208 private _totalSupply;

    error FutureLookup(uint256 timepoint, uint48 clock);

    function featureId() public pure override returns (string memory) {
        return FeatureIds.HISTORICAL_BALANCES;
    }

    function hooksBalanceChanges() external pure override returns (bool) {
        return true;
    }

    /// Records the balances after the change (read back from the token, so order among hooks is irrelevant).
    function onUpdate(address, address from, address to, uint256) external override onlyToken {
        uint48 now_ = clock();
        if (from != address(0)) _balances[from].push(now_, SafeCast.toUint208(_featureToken().balanceOf(from)));
        if (to != address(0)) _balances[to].push(now_, SafeCast.toUint208(_featureToken().balanceOf(to)));
        if (from == address(0) || to == address(0)) {
            _totalSupply.push(now_, SafeCast.toUint208(_featureToken().totalSupply()));
        }
    }

    function balanceOfAt(address account, uint256 timepoint) external view returns (uint256) {
        return _balances[account].upperLookupRecent(_past(timepoint));
    }

    function totalSupplyAt(uint256 timepoint) external view returns (uint256) {
        return _totalSupply.upperLookupRecent(_past(timepoint));
    }

    function clock() public view returns (uint48) {
        return uint48(block.timestamp);
    }

    // solhint-disable-next-line func-name-mixedcase
    function CLOCK_MODE() external pure returns (string memory) {
        return "mode=timestamp";
    }

    function _past(uint256 timepoint) private view returns (uint48) {
        uint48 now_ = clock();
        if (timepoint >= now_) revert FutureLookup(timepoint, now_);
        return uint48(timepoint);
    }
}
