// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {DirectoryKeys} from "./DirectoryKeys.sol";
import {SystemAccessControlled} from "./SystemAccessControlled.sol";
import {SystemAccessRoles} from "./SystemAccessRoles.sol";

/// @notice The system's contract catalogue: implementation and instance addresses under the spec's
/// field names. One event per change, so the index rebuilds the catalogue from events alone.
contract Directory is SystemAccessControlled {
    /// `key` is keccak256 of the spec's field name (see DirectoryKeys); address 0 clears the entry.
    event DirectoryEntrySet(address indexed sender, bytes32 indexed key, address value);

    error UnknownDirectoryKey(bytes32 key);
    error LengthMismatch(uint256 keys, uint256 values);

    mapping(bytes32 key => address value) private _entries;

    constructor(address forwarder) SystemAccessControlled(forwarder) {}

    function initialize(address accessManager_, bytes32[] calldata keys, address[] calldata values)
        external
        initializer
    {
        __SystemAccessControlled_init(accessManager_);
        _setAll(keys, values);
    }

    function setEntry(bytes32 key, address value) external onlyRoleOrModule(SystemAccessRoles.SYSTEM_MANAGER_ROLE) {
        _set(key, value);
    }

    function setEntries(bytes32[] calldata keys, address[] calldata values)
        external
        onlyRoleOrModule(SystemAccessRoles.SYSTEM_MANAGER_ROLE)
    {
        _setAll(keys, values);
    }

    function entry(bytes32 key) external view returns (address) {
        return _entries[key];
    }

    /// Every known key with its current value (address 0 when unset).
    function entries() external view returns (bytes32[] memory keys, address[] memory values) {
        keys = DirectoryKeys.all();
        values = new address[](keys.length);
        for (uint256 i = 0; i < keys.length; i++) {
            values[i] = _entries[keys[i]];
        }
    }

    function isKnownKey(bytes32 key) external pure returns (bool) {
        return DirectoryKeys.isKnown(key);
    }

    function _setAll(bytes32[] calldata keys, address[] calldata values) private {
        if (keys.length != values.length) revert LengthMismatch(keys.length, values.length);
        for (uint256 i = 0; i < keys.length; i++) {
            _set(keys[i], values[i]);
        }
    }

    function _set(bytes32 key, address value) private {
        if (!DirectoryKeys.isKnown(key)) revert UnknownDirectoryKey(key);
        _entries[key] = value;
        emit DirectoryEntrySet(_msgSender(), key, value);
    }
}
