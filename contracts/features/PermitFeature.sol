// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FeatureIds} from "./FeatureIds.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice EIP-2612 must live on the token's own address, so the token implements `permit` natively;
/// attaching this marker feature is what switches it on. No parameters.
contract PermitFeature is TokenFeature {
    function featureId() public pure override returns (string memory) {
        return FeatureIds.PERMIT;
    }
}
