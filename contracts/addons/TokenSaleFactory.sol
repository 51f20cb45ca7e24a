// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AddonFactory} from "./AddonFactory.sol";
import {TokenSale} from "./TokenSale.sol";

/// @notice The "token-sale" addon of a system (cloned by its AddonRegistry): creates TokenSale clones, the caller
/// being the issuer, and announces each with its terms.
contract TokenSaleFactory is AddonFactory {
    event TokenSaleCreated(
        address indexed sale,
        address indexed issuer,
        address indexed token,
        address paymentAsset,
        uint256 priceWad,
        uint256 hardCap,
        uint256 softCap,
        uint64 startDate,
        uint64 endDate
    );

    function create(
        address token,
        address paymentAsset,
        uint256 priceWad,
        uint256 hardCap,
        uint256 softCap,
        uint64 startDate,
        uint64 endDate
    ) external returns (address sale) {
        sale = _newInstance();
        TokenSale(sale).initialize(token, paymentAsset, priceWad, hardCap, softCap, startDate, endDate, msg.sender);
        emit TokenSaleCreated(sale, msg.sender, token, paymentAsset, priceWad, hardCap, softCap, startDate, endDate);
        _announce(sale, abi.encode(msg.sender, token, paymentAsset, priceWad, hardCap, softCap, startDate, endDate));
    }
}
