// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EnumerableSet} from "@openzeppelin/contracts/utils/structs/EnumerableSet.sol";
import {SystemAccessControlled} from "../SystemAccessControlled.sol";

/// @notice What the system's type registries (token, compliance module and addon types) share: a clone
/// initialised with the system's access manager, and the list of registered type ids
/// (typeId = keccak256(bytes(name))). Removing a type moves the last id into its place.
abstract contract TypeRegistry is SystemAccessControlled {
    using EnumerableSet for EnumerableSet.Bytes32Set;

    EnumerableSet.Bytes32Set private _typeIds;

    constructor(address forwarder) SystemAccessControlled(forwarder) {}

    function initialize(address accessManager_) external initializer {
        __SystemAccessControlled_init(accessManager_);
    }

    function typeIds() external view returns (bytes32[] memory) {
        return _typeIds.values();
    }

    function _listTypeId(bytes32 typeId) internal {
        _typeIds.add(typeId);
    }

    function _unlistTypeId(bytes32 typeId) internal {
        _typeIds.remove(typeId);
    }
}
