// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable2StepUpgradeable} from "@openzeppelin/contracts-upgradeable/access/Ownable2StepUpgradeable.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {FeatureIds} from "../features/FeatureIds.sol";
import {HistoricalBalancesFeature} from "../features/HistoricalBalancesFeature.sol";
import {IFeatureToken} from "../features/IFeatureToken.sol";

/// @notice A fixed yield on a token (a clone made by FixedYieldScheduleFactory), paid in `denominationAsset` from
/// what the schedule holds (top-ups). Periods of `intervalSeconds` run from `startDate` to `endDate` (the last one
/// may be shorter); for each completed period a holder may claim its balance at the period's last second (the
/// token's historical-balances feature) × `rateBps` per year × the period's length / 365 days, one whole token
/// counting as one whole denomination unit. The owner tops up and withdraws funds. Ownership moves in two steps
/// (OpenZeppelin's Ownable2Step: `transferOwnership` by the owner, `acceptOwnership` by the successor) and cannot be
/// renounced, as the schedule's funds would be left with nobody able to withdraw them.
contract FixedYieldSchedule is Ownable2StepUpgradeable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    uint256 private constant BPS = 10_000;
    uint256 private constant YEAR = 365 days;
    /// Claims settle at most this many periods per call (call again for the rest).
    uint256 public constant MAX_PERIODS_PER_CLAIM = 120;

    event FixedYieldToppedUp(address indexed from, uint256 amount);
    event FixedYieldWithdrawn(address indexed to, uint256 amount);
    event FixedYieldClaimed(address indexed holder, uint256 fromPeriod, uint256 toPeriod, uint256 amount);

    error FixedYieldInvalidParameters();
    error FixedYieldHistoricalBalancesRequired(address token);
    error FixedYieldNotOwner(address account);
    error FixedYieldNothingDue(address holder, uint256 nextPeriod);
    /// The schedule holds less than the claim: the owner must top it up.
    error FixedYieldUnderfunded(uint256 due, uint256 available);
    error FixedYieldZeroAmount();
    error FixedYieldCannotRenounce();

    address public token;
    address public denominationAsset;
    address public historicalBalances;
    uint256 public rateBps;
    uint256 public intervalSeconds;
    uint64 public startDate;
    uint64 public endDate;
    uint256 public totalClaimed;
    mapping(address holder => uint256) public nextUnclaimedPeriod;

    constructor() {
        _disableInitializers();
    }

    function initialize(
        address token_,
        uint256 rateBps_,
        uint256 intervalSeconds_,
        uint64 startDate_,
        uint64 endDate_,
        address denominationAsset_,
        address owner_
    ) external initializer {
        if (
            token_ == address(0) || denominationAsset_ == address(0) || owner_ == address(0) || rateBps_ == 0
                || intervalSeconds_ == 0 || startDate_ <= block.timestamp || endDate_ <= startDate_
        ) revert FixedYieldInvalidParameters();
        historicalBalances = IFeatureToken(token_).featureOf(FeatureIds.HISTORICAL_BALANCES);
        if (historicalBalances == address(0)) revert FixedYieldHistoricalBalancesRequired(token_);
        token = token_;
        rateBps = rateBps_;
        intervalSeconds = intervalSeconds_;
        startDate = startDate_;
        endDate = endDate_;
        denominationAsset = denominationAsset_;
        __Ownable_init(owner_);
    }

    function totalPeriods() public view returns (uint256) {
        return Math.ceilDiv(endDate - startDate, intervalSeconds);
    }

    function periodStart(uint256 period) public view returns (uint256) {
        return startDate + period * intervalSeconds;
    }

    function periodEnd(uint256 period) public view returns (uint256) {
        return Math.min(startDate + (period + 1) * intervalSeconds, endDate);
    }

    /// Periods whose end has passed (their balances are final).
    function completedPeriods() public view returns (uint256) {
        if (block.timestamp <= startDate) return 0;
        uint256 elapsed = (block.timestamp - startDate) / intervalSeconds;
        if (block.timestamp > endDate) return totalPeriods();
        return Math.min(elapsed, totalPeriods());
    }

    function _yield(uint256 balance, uint256 period) private view returns (uint256) {
        return Math.mulDiv(
            balance * rateBps,
            (periodEnd(period) - periodStart(period)) * 10 ** IERC20Metadata(denominationAsset).decimals(),
            BPS * YEAR * 10 ** IERC20Metadata(token).decimals()
        );
    }

    /// A holder's yield for a completed period.
    function yieldOf(address holder, uint256 period) public view returns (uint256) {
        return _yield(HistoricalBalancesFeature(historicalBalances).balanceOfAt(holder, periodEnd(period) - 1), period);
    }

    /// The yield of a completed period for every holder together (its total supply at the period's end).
    function periodYield(uint256 period) public view returns (uint256) {
        return _yield(HistoricalBalancesFeature(historicalBalances).totalSupplyAt(periodEnd(period) - 1), period);
    }

    /// What `claim` would pay `holder` now, and the periods it would settle.
    function claimable(address holder) public view returns (uint256 amount, uint256 fromPeriod, uint256 toPeriod) {
        fromPeriod = nextUnclaimedPeriod[holder];
        toPeriod = Math.min(completedPeriods(), fromPeriod + MAX_PERIODS_PER_CLAIM);
        for (uint256 period = fromPeriod; period < toPeriod; period++) {
            amount += yieldOf(holder, period);
        }
    }

    /// Pays the caller what its completed periods earned, once per period.
    function claim() external nonReentrant returns (uint256 amount) {
        uint256 fromPeriod;
        uint256 toPeriod;
        (amount, fromPeriod, toPeriod) = claimable(msg.sender);
        if (toPeriod <= fromPeriod || amount == 0) revert FixedYieldNothingDue(msg.sender, fromPeriod);
        uint256 available = IERC20(denominationAsset).balanceOf(address(this));
        if (available < amount) revert FixedYieldUnderfunded(amount, available);
        nextUnclaimedPeriod[msg.sender] = toPeriod;
        totalClaimed += amount;
        IERC20(denominationAsset).safeTransfer(msg.sender, amount);
        emit FixedYieldClaimed(msg.sender, fromPeriod, toPeriod, amount);
    }

    /// Funds the schedule from the caller (who granted it the allowance).
    function topUp(uint256 amount) external nonReentrant {
        if (amount == 0) revert FixedYieldZeroAmount();
        IERC20(denominationAsset).safeTransferFrom(msg.sender, address(this), amount);
        emit FixedYieldToppedUp(msg.sender, amount);
    }

    function withdraw(address to, uint256 amount) external nonReentrant {
        if (msg.sender != owner()) revert FixedYieldNotOwner(msg.sender);
        if (amount == 0) revert FixedYieldZeroAmount();
        IERC20(denominationAsset).safeTransfer(to, amount);
        emit FixedYieldWithdrawn(to, amount);
    }

    /// Renouncing would lock the schedule's funds for good: hand the schedule over instead.
    function renounceOwnership() public pure override {
        revert FixedYieldCannotRenounce();
    }

    /// 2: ownership moves in two steps (transferOwnership, acceptOwnership).
    function version() external pure returns (uint256) {
        return 2;
    }
}
