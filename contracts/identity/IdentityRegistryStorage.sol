// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IdentityAccess} from "./IdentityAccess.sol";
import {IdentityRoles} from "./IdentityRoles.sol";
import {IIdentityRegistryStorage} from "./IIdentityRegistryStorage.sol";

/// @notice A system's identity storage, separate from the registry so several registries can share it.
/// Country is ISO 3166-1 numeric (0 = unknown, at most 999).
contract IdentityRegistryStorage is Initializable, IdentityAccess, IIdentityRegistryStorage {
    struct Entry {
        address identity;
        uint16 country;
    }

    mapping(address wallet => Entry) private _entries;
    address[] private _registries;
    mapping(address registry => bool) public isBoundRegistry;

    event IdentityRegistryBound(address indexed sender, address indexed registry);
    event IdentityRegistryUnbound(address indexed sender, address indexed registry);

    error RegistryAlreadyBound(address registry);
    error RegistryNotBound(address registry);

    modifier onlyBoundRegistry() {
        if (!isBoundRegistry[msg.sender]) revert CallerNotBoundRegistry(msg.sender);
        _;
    }

    constructor() {
        _disableInitializers();
    }

    /// `registry` (zero for none) is bound at once, so a system can wire storage and registry at creation.
    function initialize(address accessControl_, address registry) external initializer {
        _initAccess(accessControl_);
        if (registry != address(0)) _bind(registry);
    }

    function bindIdentityRegistry(address registry) external onlyRole(IdentityRoles.SYSTEM_MANAGER_ROLE) {
        if (registry == address(0)) revert ZeroAddress();
        _bind(registry);
    }

    function unbindIdentityRegistry(address registry) external onlyRole(IdentityRoles.SYSTEM_MANAGER_ROLE) {
        if (!isBoundRegistry[registry]) revert RegistryNotBound(registry);
        isBoundRegistry[registry] = false;
        for (uint256 i = 0; i < _registries.length; i++) {
            if (_registries[i] == registry) {
                _registries[i] = _registries[_registries.length - 1];
                _registries.pop();
                break;
            }
        }
        emit IdentityRegistryUnbound(msg.sender, registry);
    }

    function linkedIdentityRegistries() external view returns (address[] memory) {
        return _registries;
    }

    function addIdentityToStorage(address wallet, address identity, uint16 country) external onlyBoundRegistry {
        if (wallet == address(0)) revert ZeroAddress();
        if (_entries[wallet].identity != address(0)) revert WalletAlreadyRegistered(wallet);
        _checkIdentity(identity);
        _checkCountry(country);
        _entries[wallet] = Entry(identity, country);
    }

    function removeIdentityFromStorage(address wallet) external onlyBoundRegistry {
        _requireRegistered(wallet);
        delete _entries[wallet];
    }

    function modifyStoredIdentity(address wallet, address identity) external onlyBoundRegistry {
        _requireRegistered(wallet);
        _checkIdentity(identity);
        _entries[wallet].identity = identity;
    }

    function modifyStoredInvestorCountry(address wallet, uint16 country) external onlyBoundRegistry {
        _requireRegistered(wallet);
        _checkCountry(country);
        _entries[wallet].country = country;
    }

    function storedIdentity(address wallet) external view returns (address) {
        return _entries[wallet].identity;
    }

    function storedInvestorCountry(address wallet) external view returns (uint16) {
        return _entries[wallet].country;
    }

    function _bind(address registry) private {
        if (isBoundRegistry[registry]) revert RegistryAlreadyBound(registry);
        isBoundRegistry[registry] = true;
        _registries.push(registry);
        emit IdentityRegistryBound(msg.sender, registry);
    }

    function _requireRegistered(address wallet) private view {
        if (_entries[wallet].identity == address(0)) revert WalletNotRegistered(wallet);
    }

    function _checkIdentity(address identity) private view {
        if (identity.code.length == 0) revert IdentityNotAContract(identity);
    }

    function _checkCountry(uint16 country) private pure {
        if (country > 999) revert InvalidCountryCode(country);
    }
}
