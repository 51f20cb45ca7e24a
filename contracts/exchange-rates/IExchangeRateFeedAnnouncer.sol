// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The root re-emits every feed a system's exchange rate registry creates, so an indexer watching only
/// the root discovers the feeds.
interface IExchangeRateFeedAnnouncer {
    function announceExchangeRateFeed(
        address sender,
        address feed,
        string calldata baseCurrency,
        string calldata quoteCurrency,
        uint8 decimals
    ) external;
}
