// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CountryAllowListModule} from "../CountryAllowListModule.sol";

/// @notice Legacy `country-allow-list` (moduleSetVersion 1): the `country-allow-list-v2` rules and params under the v1 id.
contract LegacyCountryAllowListModule is CountryAllowListModule {
    function typeId() public pure override returns (string memory) {
        return "country-allow-list";
    }

    function moduleSetVersion() public pure override returns (uint8) {
        return 1;
    }
}
