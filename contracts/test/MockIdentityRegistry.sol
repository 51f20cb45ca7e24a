// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IIdentityRegistry} from "../interfaces/IIdentityRegistry.sol";

/// @notice Test registry: wallets with an identity address, a country and verified topics set directly.
contract MockIdentityRegistry is IIdentityRegistry {
    struct Entry {
        address identity;
        uint16 country;
    }

    mapping(address wallet => Entry) private _entries;
    mapping(address wallet => mapping(uint256 topic => bool)) private _verified;

    function register(address wallet, address identity_, uint16 country) external {
        _entries[wallet] = Entry(identity_, country);
    }

    function unregister(address wallet) external {
        delete _entries[wallet];
    }

    function setVerified(address wallet, uint256 topic, bool verified) external {
        _verified[wallet][topic] = verified;
    }

    function contains(address wallet) public view returns (bool) {
        return _entries[wallet].identity != address(0);
    }

    function identity(address wallet) external view returns (address) {
        return _entries[wallet].identity;
    }

    function investorCountry(address wallet) external view returns (uint16) {
        return _entries[wallet].country;
    }

    function isVerified(address wallet, uint256[] calldata requiredTopics) external view returns (bool) {
        if (!contains(wallet)) return false;
        for (uint256 i = 0; i < requiredTopics.length; i++) {
            if (!_verified[wallet][requiredTopics[i]]) return false;
        }
        return true;
    }
}
