// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenFeature} from "./TokenFeature.sol";

/// @notice The dependency and incompatibility rules at token creation, read from each feature
/// implementation's `requiredFeatures()` / `incompatibleFeatures()`.
library FeatureRules {
    error UnknownFeature(string featureId);
    error DuplicateFeature(string featureId);
    error MissingRequiredFeature(string featureId, string requiredFeatureId);
    error IncompatibleFeatures(string featureId, string incompatibleFeatureId);

    function check(string[] memory ids, address[] memory implementations) internal pure {
        bytes32[] memory hashes = new bytes32[](ids.length);
        for (uint256 i = 0; i < ids.length; i++) {
            hashes[i] = keccak256(bytes(ids[i]));
            for (uint256 j = 0; j < i; j++) {
                if (hashes[j] == hashes[i]) revert DuplicateFeature(ids[i]);
            }
        }
        for (uint256 i = 0; i < ids.length; i++) {
            string[] memory required = TokenFeature(implementations[i]).requiredFeatures();
            for (uint256 r = 0; r < required.length; r++) {
                if (!_contains(hashes, required[r])) revert MissingRequiredFeature(ids[i], required[r]);
            }
            string[] memory incompatible = TokenFeature(implementations[i]).incompatibleFeatures();
            for (uint256 x = 0; x < incompatible.length; x++) {
                if (_contains(hashes, incompatible[x])) revert IncompatibleFeatures(ids[i], incompatible[x]);
            }
        }
    }

    function _contains(bytes32[] memory hashes, string memory id) private pure returns (bool) {
        bytes32 h = keccak256(bytes(id));
        for (uint256 i = 0; i < hashes.length; i++) {
            if (hashes[i] == h) return true;
        }
        return false;
    }
}
