// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ListModuleBase} from "./ListModuleBase.sol";

/// @notice A list whose members may neither send nor receive: mints check the recipient, transfers both
/// sides (the sender first), burns pass. A module says only what makes one wallet a member.
abstract contract BlockListModuleBase is ListModuleBase {
    function check(address token, address from, address to, uint256)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (to == address(0)) return (true, "");
        bytes32 scope = _listScope(token);
        if (from != address(0)) {
            reason = _blockedReason(scope, from, "sender");
            if (bytes(reason).length != 0) return (false, reason);
        }
        reason = _blockedReason(scope, to, "recipient");
        return (bytes(reason).length == 0, reason);
    }

    /// Why `wallet`, on the `side` ("sender" or "recipient"), is blocked by the list under `scope`; "" when it is not.
    function _blockedReason(bytes32 scope, address wallet, string memory side)
        internal
        view
        virtual
        returns (string memory);
}
