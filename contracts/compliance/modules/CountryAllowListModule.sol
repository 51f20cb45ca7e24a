// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {ListModuleBase} from "./ListModuleBase.sol";
import {RecipientModuleBase} from "./RecipientModuleBase.sol";

/// @notice country-allow-list-v2: the recipient's registry country must be listed.
/// params: abi.encode(uint16[] countries) (ISO 3166-1 numeric, 1..999, at least one).
/// Mints and transfers check the recipient only (a holder may always sell to an allowed buyer);
/// burns pass.
contract CountryAllowListModule is ListModuleBase, RecipientModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "country-allow-list-v2";
    }

    function _recipientRefusal(address token, address to) internal view override returns (string memory) {
        if (!identityRegistry.contains(to)) return "recipient not registered";
        uint16 country = identityRegistry.investorCountry(to);
        if (_hasCountry(_listScope(token), country)) return "";
        return string.concat("recipient country ", Strings.toString(country), " not allowed");
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeCountries(token, abi.decode(params, (uint16[])), false);
    }
}
