// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {BlockListModuleBase} from "./BlockListModuleBase.sol";

/// @notice country-block-list-v2: wallets registered in a listed country may neither send nor receive.
/// params: abi.encode(uint16[] countries) (ISO 3166-1 numeric, 1..999, may be empty).
/// Unregistered wallets have no country and are not blocked. Mints check the recipient; burns pass.
contract CountryBlockListModule is BlockListModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "country-block-list-v2";
    }

    function _blockedReason(bytes32 scope, address wallet, string memory side)
        internal
        view
        override
        returns (string memory)
    {
        uint16 country = _countryOf(wallet);
        if (country == 0 || !_hasCountry(scope, country)) return "";
        return string.concat(side, " country ", Strings.toString(country), " blocked");
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeCountries(token, abi.decode(params, (uint16[])), true);
    }
}
