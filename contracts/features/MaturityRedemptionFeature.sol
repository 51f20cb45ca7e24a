// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FeatureIds} from "./FeatureIds.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice After `maturityDate` holders redeem: their tokens are burnt and they receive `faceValue`
/// (raw units of `denominationAsset`) per whole token, pulled from `treasury` (which approves this feature).
/// params = abi.encode(uint256 maturityDate, address denominationAsset, address treasury, uint256 faceValue).
/// Updates: treasury any time; maturityDate and faceValue only before maturity; denominationAsset never.
contract MaturityRedemptionFeature is TokenFeature {
    using SafeERC20 for IERC20;

    uint256 public maturityDate;
    address public denominationAsset;
    address public treasury;
    uint256 public faceValue;

    event Redeemed(address indexed sender, uint256 amount, uint256 payout, address denominationAsset, address treasury);

    error NotMatured(uint256 maturityDate, uint256 timestamp);
    error AlreadyMatured(uint256 maturityDate);
    error ZeroRedemption();

    function featureId() public pure override returns (string memory) {
        return FeatureIds.MATURITY_REDEMPTION;
    }

    function parameters() public view override returns (bytes memory) {
        return abi.encode(maturityDate, denominationAsset, treasury, faceValue);
    }

    function isMatured() public view returns (bool) {
        return block.timestamp >= maturityDate;
    }

    /// Denomination-asset units paid for `amount` token units.
    function previewRedeem(uint256 amount) public view returns (uint256) {
        return Math.mulDiv(amount, faceValue, 10 ** _featureToken().decimals());
    }

    function redeem(uint256 amount) external returns (uint256 payout) {
        if (!isMatured()) revert NotMatured(maturityDate, block.timestamp);
        if (amount == 0) revert ZeroRedemption();
        payout = previewRedeem(amount);
        _featureToken().featureBurn(msg.sender, amount);
        IERC20(denominationAsset).safeTransferFrom(treasury, msg.sender, payout);
        emit Redeemed(msg.sender, amount, payout, denominationAsset, treasury);
    }

    function _configure(address, bytes calldata params, bool initializing) internal override {
        (uint256 maturity, address asset, address treasury_, uint256 face) =
            abi.decode(params, (uint256, address, address, uint256));
        _requireAddress(asset, "denominationAsset");
        _requireAddress(treasury_, "treasury");
        if (!initializing) {
            if (asset != denominationAsset) revert ParameterImmutable("denominationAsset");
            if ((maturity != maturityDate || face != faceValue) && isMatured()) revert AlreadyMatured(maturityDate);
        }
        maturityDate = maturity;
        denominationAsset = asset;
        treasury = treasury_;
        faceValue = face;
    }
}
