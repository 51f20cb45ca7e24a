// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The root of a deployment: one per chain at a deterministic address.
/// Every contract the platform creates, at any depth, is announced by an event of this contract,
/// so an indexer that watches only the root discovers everything (one factory level).
interface ISystemFactory {
    /// What a token factory reports about a token it created (features in attachment order).
    struct TokenAnnouncement {
        address sender;
        address token;
        string tokenType;
        string name;
        string symbol;
        uint8 decimals;
        address compliance;
        string[] featureIds;
        address[] features;
        bytes[] featureParams;
    }

    event SystemCreated(address indexed sender, address indexed system, address indexed owner, address tokenFactory);
    /// `compliance` is address(0) when the token has none; `featureIds[i]` is the id of `features[i]`.
    event TokenCreated(
        address indexed sender,
        address indexed token,
        address indexed system,
        address tokenFactory,
        string tokenType,
        string name,
        string symbol,
        uint8 decimals,
        address compliance,
        string[] featureIds,
        address[] features
    );
    /// One per feature instance, right after its TokenCreated: `params` is the ABI encoding at creation.
    event FeatureAttached(
        address indexed sender, address indexed token, address indexed feature, string featureId, bytes params
    );

    error UnknownTokenFactory(address caller);

    function createSystem(address owner) external returns (address system);
    function announceToken(TokenAnnouncement calldata announcement) external;
}
