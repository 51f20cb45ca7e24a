// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ComplianceModuleBase} from "./ComplianceModuleBase.sol";

/// @notice Per-token membership sets (addresses or ISO 3166-1 numeric countries) with validation.
/// Each stored list gets a new version, so replacing or clearing a list costs no per-entry deletes
/// and leaves the module's other per-token state alone.
abstract contract ListModuleBase is ComplianceModuleBase {
    uint256 public constant MAX_LIST_ENTRIES = 256;

    mapping(bytes32 key => bool) private _members;
    mapping(address token => uint256) private _listVersion;

    error EmptyList();
    error TooManyEntries(uint256 count, uint256 max);
    error ZeroAddressEntry(uint256 index);
    error DuplicateEntry(uint256 index);
    error InvalidCountryCode(uint256 index, uint16 code);

    function _storeAddresses(address token, address[] memory list, bool allowEmpty) internal {
        _checkLength(list.length, allowEmpty);
        _listVersion[token] += 1;
        bytes32 scope = _listScope(token);
        for (uint256 i = 0; i < list.length; i++) {
            if (list[i] == address(0)) revert ZeroAddressEntry(i);
            _insert(_addressKey(scope, list[i]), i);
        }
    }

    function _storeCountries(address token, uint16[] memory list, bool allowEmpty) internal {
        _checkLength(list.length, allowEmpty);
        _listVersion[token] += 1;
        bytes32 scope = _listScope(token);
        for (uint256 i = 0; i < list.length; i++) {
            _checkCountry(i, list[i]);
            _insert(_countryKey(scope, list[i]), i);
        }
    }

    /// Key prefix of the token's current list; pass it to _hasAddress / _hasCountry.
    function _listScope(address token) internal view returns (bytes32) {
        return keccak256(abi.encode(_scope(token), _listVersion[token]));
    }

    function _hasAddress(bytes32 scope, address account) internal view returns (bool) {
        return _members[_addressKey(scope, account)];
    }

    function _hasCountry(bytes32 scope, uint16 country) internal view returns (bool) {
        return _members[_countryKey(scope, country)];
    }

    /// ISO 3166-1 numeric codes are three digits; 0 means "no country" in the registry.
    function _checkCountry(uint256 index, uint16 code) internal pure {
        if (code == 0 || code > 999) revert InvalidCountryCode(index, code);
    }

    function _checkLength(uint256 length, bool allowEmpty) internal pure {
        if (length == 0 && !allowEmpty) revert EmptyList();
        if (length > MAX_LIST_ENTRIES) revert TooManyEntries(length, MAX_LIST_ENTRIES);
    }

    function _insert(bytes32 key, uint256 index) private {
        if (_members[key]) revert DuplicateEntry(index);
        _members[key] = true;
    }

    function _addressKey(bytes32 scope, address account) private pure returns (bytes32) {
        return keccak256(abi.encode(scope, uint8(1), account));
    }

    function _countryKey(bytes32 scope, uint16 country) private pure returns (bytes32) {
        return keccak256(abi.encode(scope, uint8(2), country));
    }
}
