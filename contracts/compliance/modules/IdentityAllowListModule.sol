// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ListModuleBase} from "./ListModuleBase.sol";
import {RecipientModuleBase} from "./RecipientModuleBase.sol";

/// @notice identity-allow-list-v2: the recipient's registered identity contract must be listed.
/// params: abi.encode(address[] identities) (at least one). Mints and transfers check the recipient
/// only; burns pass.
contract IdentityAllowListModule is ListModuleBase, RecipientModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "identity-allow-list-v2";
    }

    function _recipientRefusal(address token, address to) internal view override returns (string memory) {
        address identity = _identityOf(to);
        if (identity == address(0)) return "recipient not registered";
        return _hasAddress(_listScope(token), identity) ? "" : "recipient identity not allowed";
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeAddresses(token, abi.decode(params, (address[])), false);
    }
}
