// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ITokenFeature} from "../interfaces/ITokenFeature.sol";
import {ConversionMinterFeature} from "./ConversionMinterFeature.sol";
import {FeatureIds} from "./FeatureIds.sol";
import {IFeatureToken} from "./IFeatureToken.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice Holders convert this token into `targetToken` inside the conversion window: their tokens
/// are burnt and target tokens minted through the target's conversion-minter. One whole token is one
/// whole unit of `denominationAsset` of principal; it buys target shares at
/// capPricePerShareWad × (1 − discountBps / 10 000) denomination units per whole share (WAD).
/// params = abi.encode(address targetToken, address conversionMinter, address denominationAsset,
/// uint256 discountBps, uint256 capPricePerShareWad, uint256 conversionWindowStart,
/// uint256 conversionWindowEnd, uint256 minConversionAmount, bool partialAllowed).
/// At creation the target must carry `conversionMinter` (a conversion-minter feature) and it must
/// authorise this feature. targetToken, conversionMinter and denominationAsset are fixed; the rest updatable.
contract ConversionFeature is TokenFeature {
    struct Terms {
        address targetToken;
        address conversionMinter;
        address denominationAsset;
        uint256 discountBps;
        uint256 capPricePerShareWad;
        uint256 conversionWindowStart;
        uint256 conversionWindowEnd;
        uint256 minConversionAmount;
        bool partialAllowed;
    }

    Terms private _terms;

    event Converted(
        address indexed sender, address indexed targetToken, uint256 amount, uint256 targetAmount, uint256 priceWad
    );

    error ConversionTargetIsSelf();
    error ConversionMinterNotOnTarget(address targetToken, address conversionMinter);
    error InvalidConversionWindow(uint256 start, uint256 end);
    error ZeroConversionPrice();
    error OutsideConversionWindow(uint256 start, uint256 end, uint256 timestamp);
    error BelowMinimumConversion(uint256 amount, uint256 minimum);
    error PartialConversionNotAllowed(uint256 amount, uint256 balance);
    error ZeroConversionResult(uint256 amount);

    function featureId() public pure override returns (string memory) {
        return FeatureIds.CONVERSION;
    }

    function parameters() public view override returns (bytes memory) {
        return abi.encode(_terms);
    }

    function terms() external view returns (Terms memory) {
        return _terms;
    }

    /// Denomination units per whole target share (WAD) after the discount.
    function conversionPriceWad() public view returns (uint256) {
        return _terms.capPricePerShareWad * (BPS - _terms.discountBps) / BPS;
    }

    function previewConversion(uint256 amount) public view returns (uint256) {
        uint256 targetUnit = 10 ** IERC20Metadata(_terms.targetToken).decimals();
        uint256 sourceUnit = 10 ** _featureToken().decimals();
        return Math.mulDiv(amount, targetUnit * 1e18, sourceUnit * conversionPriceWad());
    }

    function convert(uint256 amount) external returns (uint256 targetAmount) {
        Terms storage t = _terms;
        if (block.timestamp < t.conversionWindowStart || block.timestamp > t.conversionWindowEnd) {
            revert OutsideConversionWindow(t.conversionWindowStart, t.conversionWindowEnd, block.timestamp);
        }
        if (amount < t.minConversionAmount) revert BelowMinimumConversion(amount, t.minConversionAmount);
        if (!t.partialAllowed) {
            uint256 balance = _featureToken().balanceOf(msg.sender);
            if (amount != balance) revert PartialConversionNotAllowed(amount, balance);
        }
        targetAmount = previewConversion(amount);
        if (targetAmount == 0) revert ZeroConversionResult(amount);
        _featureToken().featureBurn(msg.sender, amount);
        ConversionMinterFeature(t.conversionMinter).mintForConversion(msg.sender, msg.sender, targetAmount);
        emit Converted(msg.sender, t.targetToken, amount, targetAmount, conversionPriceWad());
    }

    function _configure(address sender, bytes calldata params, bool initializing) internal override {
        Terms memory next = abi.decode(params, (Terms));
        _requireBps(next.discountBps, "discountBps");
        if (next.discountBps == BPS || next.capPricePerShareWad == 0) revert ZeroConversionPrice();
        if (next.conversionWindowEnd < next.conversionWindowStart) {
            revert InvalidConversionWindow(next.conversionWindowStart, next.conversionWindowEnd);
        }
        if (initializing) {
            _requireAddress(next.denominationAsset, "denominationAsset");
            _checkTarget(next.targetToken, next.conversionMinter);
        } else {
            if (next.targetToken != _terms.targetToken) revert ParameterImmutable("targetToken");
            if (next.conversionMinter != _terms.conversionMinter) revert ParameterImmutable("conversionMinter");
            if (next.denominationAsset != _terms.denominationAsset) revert ParameterImmutable("denominationAsset");
        }
        _terms = next;
        if (initializing) ConversionMinterFeature(next.conversionMinter).registerConversion(sender);
    }

    function _checkTarget(address target, address minter) private view {
        if (target == token) revert ConversionTargetIsSelf();
        _requireAddress(target, "targetToken");
        _requireAddress(minter, "conversionMinter");
        bool attached;
        // Asking the target first: only a token (ours or not) answers, and a feature it lists is a clone we trust.
        try IFeatureToken(target).isFeature(minter) returns (bool listed) {
            attached = listed && ITokenFeature(minter).token() == target
                && keccak256(bytes(ITokenFeature(minter).featureId())) == keccak256(bytes(FeatureIds.CONVERSION_MINTER));
        } catch {}
        if (!attached) revert ConversionMinterNotOnTarget(target, minter);
    }
}
