// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Which claim issuers (identity contracts) are trusted, and for which claim topics.
interface ITrustedIssuersRegistry {
    event TrustedIssuerAdded(address indexed sender, address indexed issuer, uint256[] claimTopics);
    event TrustedIssuerRemoved(address indexed sender, address indexed issuer);
    event ClaimTopicsUpdated(address indexed sender, address indexed issuer, uint256[] claimTopics);

    function addTrustedIssuer(address issuer, uint256[] calldata claimTopics) external;
    function removeTrustedIssuer(address issuer) external;
    function updateIssuerClaimTopics(address issuer, uint256[] calldata claimTopics) external;

    function getTrustedIssuers() external view returns (address[] memory);
    function getTrustedIssuersForClaimTopic(uint256 topic) external view returns (address[] memory);
    function getTrustedIssuerClaimTopics(address issuer) external view returns (uint256[] memory);
    function isTrustedIssuer(address issuer) external view returns (bool);
    function hasClaimTopic(address issuer, uint256 topic) external view returns (bool);
}
