// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SystemAccessControlled} from "../system/SystemAccessControlled.sol";
import {SystemAccessRoles} from "../system/SystemAccessRoles.sol";
import {ExchangeRateFeed} from "./ExchangeRateFeed.sol";
import {IExchangeRateFeedAnnouncer} from "./IExchangeRateFeedAnnouncer.sol";

/// @notice A system's exchange rate feeds: one ExchangeRateFeed per (base, quote) pair of ISO 4217 codes,
/// created on first use and written by holders of SYSTEM_MANAGER_ROLE. Each creation is announced by the root.
contract ExchangeRateFeedRegistry is SystemAccessControlled {
    uint8 public constant FEED_DECIMALS = 8;

    event ExchangeRateFeedCreated(
        address indexed sender, address indexed feed, string baseCurrency, string quoteCurrency, uint8 decimals
    );

    error InvalidCurrency(string code);
    error SameCurrency(string code);
    error LengthMismatch(uint256 bases, uint256 quotes, uint256 answers);

    /// The root that announces feeds (address 0: none, e.g. in a contract test).
    address public rootFactory;
    mapping(bytes32 pair => address feed) private _feeds;
    address[] private _allFeeds;

    constructor(address forwarder) SystemAccessControlled(forwarder) {}

    function initialize(address accessManager_, address rootFactory_) external initializer {
        __SystemAccessControlled_init(accessManager_);
        rootFactory = rootFactory_;
    }

    function feed(string calldata baseCurrency, string calldata quoteCurrency) external view returns (address) {
        return _feeds[_pairKey(baseCurrency, quoteCurrency)];
    }

    function feeds() external view returns (address[] memory) {
        return _allFeeds;
    }

    function createFeed(string calldata baseCurrency, string calldata quoteCurrency)
        external
        onlyRoleOrModule(SystemAccessRoles.SYSTEM_MANAGER_ROLE)
        returns (address)
    {
        return _feedOrCreate(baseCurrency, quoteCurrency);
    }

    /// One round per pair, all effective at `effectiveAt`; a pair without a feed gets one first.
    function publishRates(
        string[] calldata baseCurrencies,
        string[] calldata quoteCurrencies,
        int256[] calldata answers,
        uint256 effectiveAt
    ) external onlyRoleOrModule(SystemAccessRoles.SYSTEM_MANAGER_ROLE) {
        if (baseCurrencies.length != quoteCurrencies.length || baseCurrencies.length != answers.length) {
            revert LengthMismatch(baseCurrencies.length, quoteCurrencies.length, answers.length);
        }
        for (uint256 i = 0; i < answers.length; i++) {
            ExchangeRateFeed(_feedOrCreate(baseCurrencies[i], quoteCurrencies[i])).updateAnswer(answers[i], effectiveAt);
        }
    }

    function _feedOrCreate(string calldata base, string calldata quote) private returns (address feed_) {
        bytes32 key = _pairKey(base, quote);
        feed_ = _feeds[key];
        if (feed_ != address(0)) return feed_;
        feed_ = address(new ExchangeRateFeed(base, quote, FEED_DECIMALS));
        _feeds[key] = feed_;
        _allFeeds.push(feed_);
        emit ExchangeRateFeedCreated(_msgSender(), feed_, base, quote, FEED_DECIMALS);
        if (rootFactory != address(0)) {
            IExchangeRateFeedAnnouncer(rootFactory).announceExchangeRateFeed(
                _msgSender(), feed_, base, quote, FEED_DECIMALS
            );
        }
    }

    function _pairKey(string calldata base, string calldata quote) private pure returns (bytes32) {
        _checkCurrency(base);
        _checkCurrency(quote);
        if (keccak256(bytes(base)) == keccak256(bytes(quote))) revert SameCurrency(base);
        return keccak256(abi.encodePacked(base, "/", quote));
    }

    /// ISO 4217 alpha-3: three upper-case ASCII letters.
    function _checkCurrency(string calldata code) private pure {
        bytes calldata b = bytes(code);
        if (b.length != 3) revert InvalidCurrency(code);
        for (uint256 i = 0; i < 3; i++) {
            if (b[i] < "A" || b[i] > "Z") revert InvalidCurrency(code);
        }
    }
}
