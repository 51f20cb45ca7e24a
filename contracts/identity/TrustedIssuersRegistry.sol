// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IdentityAccess} from "./IdentityAccess.sol";
import {IdentityRoles} from "./IdentityRoles.sol";
import {ITrustedIssuersRegistry} from "./ITrustedIssuersRegistry.sol";

/// @notice Trusted claim issuers and their topics (a system's, or a token's own). Bounded (50 issuers,
/// 15 topics each) so a verification that walks it stays within a block's gas.
contract TrustedIssuersRegistry is Initializable, IdentityAccess, ITrustedIssuersRegistry {
    uint256 public constant MAX_TRUSTED_ISSUERS = 50;
    uint256 public constant MAX_CLAIM_TOPICS = 15;

    address[] private _issuers;
    mapping(address issuer => uint256[]) private _topicsOf;
    mapping(uint256 topic => address[]) private _issuersByTopic;

    error IssuerAlreadyTrusted(address issuer);
    error IssuerNotTrusted(address issuer);
    error NoClaimTopics(address issuer);
    error DuplicateClaimTopic(uint256 topic);
    error TooManyClaimTopics(uint256 count, uint256 max);
    error TooManyTrustedIssuers(uint256 max);

    constructor() {
        _disableInitializers();
    }

    function initialize(address accessControl_) external initializer {
        _initAccess(accessControl_);
    }

    function addTrustedIssuer(address issuer, uint256[] calldata claimTopics)
        external
        onlyRole(IdentityRoles.CLAIM_POLICY_MANAGER_ROLE)
    {
        if (issuer == address(0)) revert ZeroAddress();
        if (_topicsOf[issuer].length != 0) revert IssuerAlreadyTrusted(issuer);
        if (_issuers.length >= MAX_TRUSTED_ISSUERS) revert TooManyTrustedIssuers(MAX_TRUSTED_ISSUERS);
        _checkTopics(issuer, claimTopics);
        _issuers.push(issuer);
        _setTopics(issuer, claimTopics);
        emit TrustedIssuerAdded(msg.sender, issuer, claimTopics);
    }

    function removeTrustedIssuer(address issuer) external onlyRole(IdentityRoles.CLAIM_POLICY_MANAGER_ROLE) {
        _requireTrusted(issuer);
        _clearTopics(issuer);
        _removeAddress(_issuers, issuer);
        emit TrustedIssuerRemoved(msg.sender, issuer);
    }

    function updateIssuerClaimTopics(address issuer, uint256[] calldata claimTopics)
        external
        onlyRole(IdentityRoles.CLAIM_POLICY_MANAGER_ROLE)
    {
        _requireTrusted(issuer);
        _checkTopics(issuer, claimTopics);
        _clearTopics(issuer);
        _setTopics(issuer, claimTopics);
        emit ClaimTopicsUpdated(msg.sender, issuer, claimTopics);
    }

    function getTrustedIssuers() external view returns (address[] memory) {
        return _issuers;
    }

    function getTrustedIssuersForClaimTopic(uint256 topic) external view returns (address[] memory) {
        return _issuersByTopic[topic];
    }

    function getTrustedIssuerClaimTopics(address issuer) external view returns (uint256[] memory) {
        return _topicsOf[issuer];
    }

    function isTrustedIssuer(address issuer) external view returns (bool) {
        return _topicsOf[issuer].length != 0;
    }

    function hasClaimTopic(address issuer, uint256 topic) external view returns (bool) {
        uint256[] storage topics = _topicsOf[issuer];
        for (uint256 i = 0; i < topics.length; i++) {
            if (topics[i] == topic) return true;
        }
        return false;
    }

    function _requireTrusted(address issuer) private view {
        if (_topicsOf[issuer].length == 0) revert IssuerNotTrusted(issuer);
    }

    function _checkTopics(address issuer, uint256[] calldata topics) private pure {
        if (topics.length == 0) revert NoClaimTopics(issuer);
        if (topics.length > MAX_CLAIM_TOPICS) revert TooManyClaimTopics(topics.length, MAX_CLAIM_TOPICS);
        for (uint256 i = 1; i < topics.length; i++) {
            for (uint256 j = 0; j < i; j++) {
                if (topics[i] == topics[j]) revert DuplicateClaimTopic(topics[i]);
            }
        }
    }

    function _setTopics(address issuer, uint256[] calldata topics) private {
        _topicsOf[issuer] = topics;
        for (uint256 i = 0; i < topics.length; i++) {
            _issuersByTopic[topics[i]].push(issuer);
        }
    }

    function _clearTopics(address issuer) private {
        uint256[] storage topics = _topicsOf[issuer];
        for (uint256 i = 0; i < topics.length; i++) {
            _removeAddress(_issuersByTopic[topics[i]], issuer);
        }
        delete _topicsOf[issuer];
    }

    function _removeAddress(address[] storage list, address value) private {
        for (uint256 i = 0; i < list.length; i++) {
            if (list[i] == value) {
                list[i] = list[list.length - 1];
                list.pop();
                return;
            }
        }
    }
}
