// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Checkpoints} from "@openzeppelin/contracts/utils/structs/Checkpoints.sol";
import {FeatureIds} from "./FeatureIds.sol";
import {HistoricalBalancesFeature} from "./HistoricalBalancesFeature.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice Fixed yield paid from `treasury` in `denominationAsset`. Periods of `interval` run from the
/// attachment time; for each completed period a holder may claim
/// balance at the period's last second × rate (bps per year) × interval / 365 days,
/// one whole token counting as one whole denomination unit. Balances come from the token's
/// historical-balances feature (required). The treasury approves this feature.
/// params = abi.encode(uint256 rate, string interval, address treasury, address denominationAsset),
/// interval one of DAILY (1 d), WEEKLY (7 d), MONTHLY (30 d), QUARTERLY (91 d), SEMI_ANNUALLY (182 d),
/// ANNUALLY (365 d). Updates: rate (applies from the period in progress) and treasury; interval and
/// denominationAsset are fixed.
contract FixedTreasuryYieldFeature is TokenFeature {
    using SafeERC20 for IERC20;
    using Checkpoints for Checkpoints.Trace208;

    /// Claims settle at most this many periods per call (call again for the rest).
    uint256 public constant MAX_PERIODS_PER_CLAIM = 120;

    uint256 public startTime;
    uint256 public intervalSeconds;
    string public interval;
    address public treasury;
    address public denominationAsset;
    address public historicalBalances;
    /// Rate in bps per year, keyed by the first period it applies to.
    Checkpoints.Trace208 private _rates;
    mapping(address holder => uint256) public nextUnclaimedPeriod;

    event YieldClaimed(
        address indexed sender, uint256 fromPeriod, uint256 toPeriod, uint256 amount, address denominationAsset
    );

    error UnknownInterval(string interval);
    error NoCompletedPeriod(address holder, uint256 nextPeriod);
    error RequiredFeatureNotAttached(string featureId);

    function featureId() public pure override returns (string memory) {
        return FeatureIds.FIXED_TREASURY_YIELD;
    }

    function requiredFeatures() external pure override returns (string[] memory) {
        return FeatureIds.one(FeatureIds.HISTORICAL_BALANCES);
    }

    function parameters() public view override returns (bytes memory) {
        return abi.encode(rate(), interval, treasury, denominationAsset);
    }

    /// The rate (bps per year) in force for the period in progress.
    function rate() public view returns (uint256) {
        return _rates.latest();
    }

    function rateOfPeriod(uint256 period) public view returns (uint256) {
        return _rates.upperLookup(uint48(period));
    }

    function completedPeriods() public view returns (uint256) {
        return (block.timestamp - startTime) / intervalSeconds;
    }

    function periodEnd(uint256 period) public view returns (uint256) {
        return startTime + (period + 1) * intervalSeconds;
    }

    function yieldOfPeriod(address holder, uint256 period) public view returns (uint256) {
        uint256 balance = HistoricalBalancesFeature(historicalBalances).balanceOfAt(holder, periodEnd(period) - 1);
        uint256 denominationUnit = 10 ** IERC20Metadata(denominationAsset).decimals();
        return Math.mulDiv(
            balance * rateOfPeriod(period),
            intervalSeconds * denominationUnit,
            BPS * YEAR * 10 ** _featureToken().decimals()
        );
    }

    /// What `claim` would pay `holder` now, and the period range it would settle.
    function claimable(address holder) public view returns (uint256 amount, uint256 fromPeriod, uint256 toPeriod) {
        fromPeriod = nextUnclaimedPeriod[holder];
        toPeriod = Math.min(completedPeriods(), fromPeriod + MAX_PERIODS_PER_CLAIM);
        for (uint256 period = fromPeriod; period < toPeriod; period++) {
            amount += yieldOfPeriod(holder, period);
        }
    }

    function claim() external returns (uint256 amount) {
        uint256 fromPeriod;
        uint256 toPeriod;
        (amount, fromPeriod, toPeriod) = claimable(msg.sender);
        if (toPeriod <= fromPeriod) revert NoCompletedPeriod(msg.sender, fromPeriod);
        nextUnclaimedPeriod[msg.sender] = toPeriod;
        if (amount != 0) IERC20(denominationAsset).safeTransferFrom(treasury, msg.sender, amount);
        emit YieldClaimed(msg.sender, fromPeriod, toPeriod, amount, denominationAsset);
    }

    function _configure(address, bytes calldata params, bool initializing) internal override {
        (uint256 rate_, string memory interval_, address treasury_, address asset) =
            abi.decode(params, (uint256, string, address, address));
        _requireAddress(treasury_, "treasury");
        _requireAddress(asset, "denominationAsset");
        if (initializing) {
            intervalSeconds = _intervalSeconds(interval_);
            interval = interval_;
            denominationAsset = asset;
            startTime = block.timestamp;
            historicalBalances = _featureToken().featureOf(FeatureIds.HISTORICAL_BALANCES);
            if (historicalBalances == address(0)) revert RequiredFeatureNotAttached(FeatureIds.HISTORICAL_BALANCES);
        } else {
            if (keccak256(bytes(interval_)) != keccak256(bytes(interval))) revert ParameterImmutable("interval");
            if (asset != denominationAsset) revert ParameterImmutable("denominationAsset");
        }
        treasury = treasury_;
        _rates.push(uint48(completedPeriods()), SafeCast.toUint208(rate_));
    }

    function _intervalSeconds(string memory name) private pure returns (uint256) {
        bytes32 h = keccak256(bytes(name));
        if (h == keccak256("DAILY")) return 1 days;
        if (h == keccak256("WEEKLY")) return 7 days;
        if (h == keccak256("MONTHLY")) return 30 days;
        if (h == keccak256("QUARTERLY")) return 91 days;
        if (h == keccak256("SEMI_ANNUALLY")) return 182 days;
        if (h == keccak256("ANNUALLY")) return 365 days;
        revert UnknownInterval(name);
    }
}
