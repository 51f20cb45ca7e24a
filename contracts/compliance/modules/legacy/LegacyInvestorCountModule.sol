// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {InvestorCountModule} from "../InvestorCountModule.sol";

/// @notice Legacy `investor-count` (moduleSetVersion 1): the `investor-count-v2` rules and params under the v1 id.
contract LegacyInvestorCountModule is InvestorCountModule {
    function typeId() public pure override returns (string memory) {
        return "investor-count";
    }

    function moduleSetVersion() public pure override returns (uint8) {
        return 1;
    }
}
