// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenFeature} from "../features/TokenFeature.sol";

/// @notice Test double for the hook guard: reacts to every balance change by moving tokens again.
contract TokenMockLoopingFeature is TokenFeature {
    function featureId() public pure override returns (string memory) {
        return "mock-looping";
    }

    function hooksBalanceChanges() external pure override returns (bool) {
        return true;
    }

    function onUpdate(address, address, address to, uint256) external override onlyToken {
        if (to != address(0)) _featureToken().featureMint(to, 1);
    }
}
