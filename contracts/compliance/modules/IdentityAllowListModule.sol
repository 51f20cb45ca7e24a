// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ListModuleBase} from "./ListModuleBase.sol";

/// @notice identity-allow-list-v2: the recipient's registered identity contract must be listed.
/// params: abi.encode(address[] identities) (at least one). Mints and transfers check the recipient
/// only; burns pass.
contract IdentityAllowListModule is ListModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "identity-allow-list-v2";
    }

    function check(address token, address, address to, uint256)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (to == address(0)) return (true, "");
        address identity = _identityOf(to);
        if (identity == address(0)) return (false, "recipient not registered");
        if (!_hasAddress(_listScope(token), identity)) return (false, "recipient identity not allowed");
        return (true, "");
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeAddresses(token, abi.decode(params, (address[])), false);
    }
}
