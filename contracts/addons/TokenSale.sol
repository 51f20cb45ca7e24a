// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// @notice A primary sale of a token (a clone made by TokenSaleFactory): between `startDate` and `endDate` buyers pay
/// in `paymentAsset` at `priceWad` (payment units per token unit, 18-decimal fixed point, rounded up) for up to
/// `hardCap` token units in all. After the end, when at least `softCap` was sold, each buyer withdraws its tokens
/// (moved from the issuer, who granted this sale an allowance) and the issuer the proceeds; when the soft cap was
/// missed each buyer withdraws its payment back and no token moves.
/// The issuer's seat (taking the proceeds) moves in two steps, as OpenZeppelin's Ownable2Step does: `transferIssuer`
/// by the issuer, `acceptIssuer` by the successor. Buyers' tokens keep coming from `tokenSource` (the issuer at
/// creation, whose allowance they rely on): a handover changes who takes the proceeds, never what buyers receive.
contract TokenSale is Initializable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    event TokenSalePurchased(address indexed buyer, uint256 amount, uint256 payment, uint256 sold);
    event TokenSaleTokensWithdrawn(address indexed buyer, uint256 amount);
    event TokenSaleRefunded(address indexed buyer, uint256 payment);
    event TokenSaleProceedsWithdrawn(address indexed issuer, uint256 proceeds);
    event TokenSaleIssuerTransferStarted(address indexed previousIssuer, address indexed newIssuer);
    event TokenSaleIssuerTransferred(address indexed previousIssuer, address indexed newIssuer);

    error TokenSaleInvalidParameters();
    error TokenSaleNotOpen(uint256 startDate, uint256 endDate);
    error TokenSaleHardCapExceeded(uint256 available);
    error TokenSaleZeroAmount();
    error TokenSaleNotEnded(uint256 endDate);
    error TokenSaleNothingToWithdraw(address account);
    error TokenSaleNotIssuer(address account);
    error TokenSaleNotPendingIssuer(address account);

    address public token;
    address public paymentAsset;
    address public issuer;
    uint256 public priceWad;
    uint256 public hardCap;
    uint256 public softCap;
    uint64 public startDate;
    uint64 public endDate;
    uint256 public sold;
    uint256 public raised;
    bool public proceedsWithdrawn;
    mapping(address buyer => uint256) public purchased;
    mapping(address buyer => uint256) public paid;
    /// The successor proposed by the issuer until it accepts (zero when none).
    address public pendingIssuer;
    /// Where buyers' tokens come from: the issuer at creation (who granted the sale its allowance), for good.
    address public tokenSource;

    constructor() {
        _disableInitializers();
    }

    function initialize(
        address token_,
        address paymentAsset_,
        uint256 priceWad_,
        uint256 hardCap_,
        uint256 softCap_,
        uint64 startDate_,
        uint64 endDate_,
        address issuer_
    ) external initializer {
        if (
            token_ == address(0) || paymentAsset_ == address(0) || issuer_ == address(0) || priceWad_ == 0
                || hardCap_ == 0 || softCap_ > hardCap_ || startDate_ >= endDate_ || endDate_ <= block.timestamp
        ) revert TokenSaleInvalidParameters();
        token = token_;
        paymentAsset = paymentAsset_;
        priceWad = priceWad_;
        hardCap = hardCap_;
        softCap = softCap_;
        startDate = startDate_;
        endDate = endDate_;
        issuer = issuer_;
        tokenSource = issuer_;
    }

    /// What `amount` token units cost, in payment units (rounded up).
    function priceOf(uint256 amount) public view returns (uint256) {
        return Math.mulDiv(amount, priceWad, 1e18, Math.Rounding.Ceil);
    }

    function purchase(uint256 amount) external nonReentrant {
        if (block.timestamp < startDate || block.timestamp > endDate) revert TokenSaleNotOpen(startDate, endDate);
        if (amount == 0) revert TokenSaleZeroAmount();
        if (sold + amount > hardCap) revert TokenSaleHardCapExceeded(hardCap - sold);
        uint256 payment = priceOf(amount);
        sold += amount;
        raised += payment;
        purchased[msg.sender] += amount;
        paid[msg.sender] += payment;
        IERC20(paymentAsset).safeTransferFrom(msg.sender, address(this), payment);
        emit TokenSalePurchased(msg.sender, amount, payment, sold);
    }

    /// Whether the sale ended having sold at least its soft cap.
    function succeeded() public view returns (bool) {
        return block.timestamp > endDate && sold >= softCap;
    }

    /// After the end: the issuer takes the proceeds and a buyer its tokens (soft cap reached), or a buyer its payment
    /// back (soft cap missed). Whatever is due to the caller, once.
    function withdraw() external nonReentrant {
        if (block.timestamp <= endDate) revert TokenSaleNotEnded(endDate);
        bool reached = sold >= softCap;
        bool paidOut;
        if (reached && msg.sender == issuer && !proceedsWithdrawn) {
            proceedsWithdrawn = true;
            IERC20(paymentAsset).safeTransfer(issuer, raised);
            emit TokenSaleProceedsWithdrawn(issuer, raised);
            paidOut = true;
        }
        uint256 amount = purchased[msg.sender];
        if (amount > 0) {
            purchased[msg.sender] = 0;
            if (reached) {
                IERC20(token).safeTransferFrom(tokenSource, msg.sender, amount);
                emit TokenSaleTokensWithdrawn(msg.sender, amount);
            } else {
                uint256 payment = paid[msg.sender];
                paid[msg.sender] = 0;
                IERC20(paymentAsset).safeTransfer(msg.sender, payment);
                emit TokenSaleRefunded(msg.sender, payment);
            }
            paidOut = true;
        }
        if (!paidOut) revert TokenSaleNothingToWithdraw(msg.sender);
    }

    /// The issuer proposes its successor (zero withdraws the proposal); the issuer keeps its seat until accepted.
    function transferIssuer(address newIssuer) external {
        if (msg.sender != issuer) revert TokenSaleNotIssuer(msg.sender);
        pendingIssuer = newIssuer;
        emit TokenSaleIssuerTransferStarted(issuer, newIssuer);
    }

    /// The proposed successor takes the issuer's seat.
    function acceptIssuer() external {
        if (msg.sender != pendingIssuer) revert TokenSaleNotPendingIssuer(msg.sender);
        address previous = issuer;
        issuer = msg.sender;
        delete pendingIssuer;
        emit TokenSaleIssuerTransferred(previous, msg.sender);
    }

    /// 2: the issuer's seat moves in two steps; tokens come from `tokenSource`.
    function version() external pure returns (uint256) {
        return 2;
    }
}
