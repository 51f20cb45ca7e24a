// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ListModuleBase} from "./ListModuleBase.sol";

/// @notice identity-block-list-v2: wallets whose registered identity is listed may neither send nor
/// receive. params: abi.encode(address[] identities) (may be empty). Mints check the recipient; burns pass.
contract IdentityBlockListModule is ListModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "identity-block-list-v2";
    }

    function check(address token, address from, address to, uint256)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (to == address(0)) return (true, "");
        bytes32 scope = _listScope(token);
        if (from != address(0)) {
            address fromIdentity = _identityOf(from);
            if (fromIdentity != address(0) && _hasAddress(scope, fromIdentity)) {
                return (false, "sender identity blocked");
            }
        }
        address toIdentity = _identityOf(to);
        if (toIdentity != address(0) && _hasAddress(scope, toIdentity)) return (false, "recipient identity blocked");
        return (true, "");
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeAddresses(token, abi.decode(params, (address[])), true);
    }
}
