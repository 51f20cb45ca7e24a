// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ComplianceModuleBase} from "./ComplianceModuleBase.sol";

/// @notice A rule on the recipient alone: mints and transfers check it (a holder may always sell to an
/// accepted buyer), burns pass.
abstract contract RecipientModuleBase is ComplianceModuleBase {
    function check(address token, address, address to, uint256)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (to == address(0)) return (true, "");
        reason = _recipientRefusal(token, to);
        return (bytes(reason).length == 0, reason);
    }

    /// Why the token refuses `to` as a recipient; "" when it accepts it.
    function _recipientRefusal(address token, address to) internal view virtual returns (string memory);
}
