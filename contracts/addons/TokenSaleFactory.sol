// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IAddonRegistryInstances} from "./IAddonRegistryInstances.sol";
import {TokenSale} from "./TokenSale.sol";

/// @notice The "token-sale" addon of a system (cloned by its AddonRegistry): creates TokenSale clones, the caller
/// being the issuer, and announces each with its terms.
contract TokenSaleFactory is Initializable {
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

    error TokenSaleFactoryNoImplementation();

    address public addonRegistry;

    constructor() {
        _disableInitializers();
    }

    function initialize(address addonRegistry_) external initializer {
        addonRegistry = addonRegistry_;
    }

    function create(
        address token,
        address paymentAsset,
        uint256 priceWad,
        uint256 hardCap,
        uint256 softCap,
        uint64 startDate,
        uint64 endDate
    ) external returns (address sale) {
        address implementation = IAddonRegistryInstances(addonRegistry).instanceImplementationOf(address(this));
        if (implementation == address(0)) revert TokenSaleFactoryNoImplementation();
        sale = Clones.clone(implementation);
        TokenSale(sale).initialize(token, paymentAsset, priceWad, hardCap, softCap, startDate, endDate, msg.sender);
        emit TokenSaleCreated(sale, msg.sender, token, paymentAsset, priceWad, hardCap, softCap, startDate, endDate);
    }

    function version() external pure returns (uint256) {
        return 1;
    }
}
