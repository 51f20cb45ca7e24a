// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
import {ITokenFeature} from "../interfaces/ITokenFeature.sol";
import {TokenRoles} from "../token/TokenRoles.sol";
import {IFeatureToken} from "./IFeatureToken.sol";

/// @notice Base of every feature: one clone per token, initialised by the token factory at creation.
/// Rules (required / incompatible feature ids) are pure so the factory and the API read them from the
/// implementation; parameters change later only through `updateParameters` (token GOVERNANCE role).
abstract contract TokenFeature is ITokenFeature, Initializable {
    /// Seconds in the year used by every annual rate (365 days).
    uint256 internal constant YEAR = 365 days;
    uint256 internal constant BPS = 10_000;

    address public token;
    /// The token factory that created this instance (a conversion-minter trusts only it).
    address public factory;

    event FeatureParametersUpdated(address indexed sender, address indexed token, string featureId, bytes params);

    error NotFeatureToken(address caller);
    error FeatureHasNoParameters(string featureId);
    error ParameterImmutable(string name);
    error ZeroAddressParameter(string name);
    error BpsTooHigh(string name, uint256 bps);

    modifier onlyToken() {
        if (msg.sender != token) revert NotFeatureToken(msg.sender);
        _;
    }

    modifier onlyGovernance() {
        if (!IFeatureToken(token).hasRole(TokenRoles.GOVERNANCE_ROLE, msg.sender)) {
            revert IAccessControl.AccessControlUnauthorizedAccount(msg.sender, TokenRoles.GOVERNANCE_ROLE);
        }
        _;
    }

    constructor() {
        _disableInitializers();
    }

    /// Called once by the token factory right after the token was initialised with its feature list.
    /// `sender` is the account that created the token.
    function initialize(address token_, address sender, bytes calldata params) external initializer {
        token = token_;
        factory = msg.sender;
        _configure(sender, params, true);
    }

    /// Replaces the governance-controlled parameters (same encoding as at creation).
    function updateParameters(bytes calldata params) external onlyGovernance {
        _configure(msg.sender, params, false);
        emit FeatureParametersUpdated(msg.sender, token, featureId(), parameters());
    }

    function featureId() public pure virtual returns (string memory);

    function parameters() public view virtual returns (bytes memory) {
        return "";
    }

    /// Whether the token must call `onUpdate` on balance changes (the token skips the others).
    function hooksBalanceChanges() external pure virtual returns (bool) {
        return false;
    }

    function requiredFeatures() external pure virtual returns (string[] memory) {
        return new string[](0);
    }

    function incompatibleFeatures() external pure virtual returns (string[] memory) {
        return new string[](0);
    }

    function onUpdate(address, address, address, uint256) external virtual onlyToken {}

    /// Validates and stores `params`; features without parameters refuse updates.
    function _configure(address, bytes calldata, bool initializing) internal virtual {
        if (!initializing) revert FeatureHasNoParameters(featureId());
    }

    function _featureToken() internal view returns (IFeatureToken) {
        return IFeatureToken(token);
    }

    function _requireAddress(address value, string memory name) internal pure {
        if (value == address(0)) revert ZeroAddressParameter(name);
    }

    function _requireBps(uint256 bps, string memory name) internal pure {
        if (bps > BPS) revert BpsTooHigh(name, bps);
    }
}
