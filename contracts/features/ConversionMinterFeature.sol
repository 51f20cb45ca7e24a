// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {ITokenFeature} from "../interfaces/ITokenFeature.sol";
import {TokenRoles} from "../token/TokenRoles.sol";
import {FeatureIds} from "./FeatureIds.sol";
import {IFeatureToken} from "./IFeatureToken.sol";
import {TokenFeature} from "./TokenFeature.sol";

interface ITokenRegistry {
    function isToken(address token) external view returns (bool);
}

/// @notice Companion on a conversion's target token: mints target tokens for the conversion features
/// it authorises. A conversion feature registers itself while its token is created by the same token
/// factory; the registration succeeds when the token's creator holds GOVERNANCE on this target token.
/// The target's governance can authorise or revoke conversions later. No parameters.
contract ConversionMinterFeature is TokenFeature {
    mapping(address conversion => bool) public isAuthorizedConversion;

    event ConversionAuthorizationChanged(
        address indexed sender, address indexed conversion, address indexed sourceToken, bool authorized
    );
    event ConversionMinted(address indexed sender, address indexed conversion, address indexed to, uint256 amount);

    error NotAConversionFeature(address caller);
    error ConversionNotAuthorized(address targetToken, address conversion, address account);

    function featureId() public pure override returns (string memory) {
        return FeatureIds.CONVERSION_MINTER;
    }

    /// Called by a conversion feature while its token is being created; `creator` created that token.
    function registerConversion(address creator) external {
        address sourceToken = ITokenFeature(msg.sender).token();
        bool genuine = ITokenRegistry(factory).isToken(sourceToken) && IFeatureToken(sourceToken).isFeature(msg.sender)
            && keccak256(bytes(ITokenFeature(msg.sender).featureId())) == keccak256(bytes(FeatureIds.CONVERSION));
        if (!genuine) revert NotAConversionFeature(msg.sender);
        if (!IAccessControl(token).hasRole(TokenRoles.GOVERNANCE_ROLE, creator)) {
            revert ConversionNotAuthorized(token, msg.sender, creator);
        }
        isAuthorizedConversion[msg.sender] = true;
        emit ConversionAuthorizationChanged(creator, msg.sender, sourceToken, true);
    }

    function setConversionAuthorized(address conversion, bool authorized) external onlyGovernance {
        isAuthorizedConversion[conversion] = authorized;
        emit ConversionAuthorizationChanged(msg.sender, conversion, ITokenFeature(conversion).token(), authorized);
    }

    /// Mints `amount` target tokens to `to` for an authorised conversion feature (`sender` is its holder).
    function mintForConversion(address sender, address to, uint256 amount) external {
        if (!isAuthorizedConversion[msg.sender]) revert ConversionNotAuthorized(token, msg.sender, sender);
        _featureToken().featureMint(to, amount);
        emit ConversionMinted(sender, msg.sender, to, amount);
    }
}
