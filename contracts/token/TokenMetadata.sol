// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {TokenRoles} from "./TokenRoles.sol";

/// @notice Issuer metadata: free key → value strings set and removed by GOVERNANCE.
abstract contract TokenMetadata is AccessControlUpgradeable {
    mapping(string key => string) private _metadata;

    event MetadataSet(address indexed sender, string key, string value);
    event MetadataRemoved(address indexed sender, string key);

    error InvalidMetadata(string key);
    error MetadataNotFound(string key);

    function setMetadata(string calldata key, string calldata value) external onlyRole(TokenRoles.GOVERNANCE_ROLE) {
        if (bytes(key).length == 0 || bytes(value).length == 0) revert InvalidMetadata(key);
        _metadata[key] = value;
        emit MetadataSet(_msgSender(), key, value);
    }

    function removeMetadata(string calldata key) external onlyRole(TokenRoles.GOVERNANCE_ROLE) {
        if (bytes(_metadata[key]).length == 0) revert MetadataNotFound(key);
        delete _metadata[key];
        emit MetadataRemoved(_msgSender(), key);
    }

    /// The value of `key`, empty when unset.
    function metadata(string calldata key) external view returns (string memory) {
        return _metadata[key];
    }
}
