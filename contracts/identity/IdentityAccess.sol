// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

/// @notice Role checks against the system's access control (the roles live on the system, not here).
/// A missing role reverts with OpenZeppelin's AccessControlUnauthorizedAccount(account, role).
abstract contract IdentityAccess {
    /// The system's access-control contract (anything answering IAccessControl.hasRole).
    address public accessControl;

    error ZeroAddress();

    modifier onlyRole(bytes32 role) {
        _checkRole(role, msg.sender);
        _;
    }

    function _initAccess(address accessControl_) internal {
        if (accessControl_ == address(0)) revert ZeroAddress();
        accessControl = accessControl_;
    }

    function _hasRole(bytes32 role, address account) internal view returns (bool) {
        return IAccessControl(accessControl).hasRole(role, account);
    }

    function _checkRole(bytes32 role, address account) internal view {
        if (!_hasRole(role, account)) revert IAccessControl.AccessControlUnauthorizedAccount(account, role);
    }
}
