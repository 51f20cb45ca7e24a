// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {ListModuleBase} from "./ListModuleBase.sol";

/// @notice country-block-list-v2: wallets registered in a listed country may neither send nor receive.
/// params: abi.encode(uint16[] countries) (ISO 3166-1 numeric, 1..999, may be empty).
/// Unregistered wallets have no country and are not blocked. Mints check the recipient; burns pass.
contract CountryBlockListModule is ListModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "country-block-list-v2";
    }

    function check(address token, address from, address to, uint256)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (to == address(0)) return (true, "");
        bytes32 scope = _listScope(token);
        if (from != address(0)) {
            uint16 fromCountry = _countryOf(from);
            if (fromCountry != 0 && _hasCountry(scope, fromCountry)) {
                return (false, string.concat("sender country ", Strings.toString(fromCountry), " blocked"));
            }
        }
        uint16 toCountry = _countryOf(to);
        if (toCountry != 0 && _hasCountry(scope, toCountry)) {
            return (false, string.concat("recipient country ", Strings.toString(toCountry), " blocked"));
        }
        return (true, "");
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeCountries(token, abi.decode(params, (uint16[])), true);
    }
}
