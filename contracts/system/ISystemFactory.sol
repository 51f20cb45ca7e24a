// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The root of a deployment: one per chain at a deterministic address.
/// Every contract the platform creates, at any depth, is announced by an event of this contract,
/// so an indexer that watches only the root discovers everything (one factory level).
interface ISystemFactory {
    event SystemCreated(address indexed sender, address indexed system, address indexed owner, address tokenFactory);
    event TokenCreated(
        address indexed sender,
        address indexed token,
        address indexed system,
        address tokenFactory,
        string tokenType,
        string name,
        string symbol,
        uint8 decimals
    );

    error UnknownTokenFactory(address caller);

    function createSystem(address owner) external returns (address system);
    function announceToken(
        address sender,
        address token,
        string calldata tokenType,
        string calldata name,
        string calldata symbol,
        uint8 decimals
    ) external;
}
