// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {ListModuleBase} from "./ListModuleBase.sol";

/// @notice country-allow-list-v2: the recipient's registry country must be listed.
/// params: abi.encode(uint16[] countries) (ISO 3166-1 numeric, 1..999, at least one).
/// Mints and transfers check the recipient only (a holder may always sell to an allowed buyer);
/// burns pass.
contract CountryAllowListModule is ListModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "country-allow-list-v2";
    }

    function check(address token, address, address to, uint256)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (to == address(0)) return (true, "");
        if (!identityRegistry.contains(to)) return (false, "recipient not registered");
        uint16 country = identityRegistry.investorCountry(to);
        if (!_hasCountry(_listScope(token), country)) {
            return (false, string.concat("recipient country ", Strings.toString(country), " not allowed"));
        }
        return (true, "");
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeCountries(token, abi.decode(params, (uint16[])), false);
    }
}
