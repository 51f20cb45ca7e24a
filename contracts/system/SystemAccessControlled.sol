// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {ERC2771ContextUpgradeable} from "@openzeppelin/contracts-upgradeable/metatx/ERC2771ContextUpgradeable.sol";
import {SystemAccessRoles} from "./SystemAccessRoles.sol";

/// @notice Base of the system's clonable contracts: roles live in the system's access manager,
/// and calls relayed by the chain's trusted forwarder act for the signer.
abstract contract SystemAccessControlled is ERC2771ContextUpgradeable {
    /// Same selector as OpenZeppelin's, so the API maps one error for every role check.
    error AccessControlUnauthorizedAccount(address account, bytes32 neededRole);
    error InvalidAccessManager(address accessManager);

    address public accessManager;

    constructor(address forwarder) ERC2771ContextUpgradeable(forwarder) {
        _disableInitializers();
    }

    function __SystemAccessControlled_init(address accessManager_) internal onlyInitializing {
        if (accessManager_.code.length == 0) revert InvalidAccessManager(accessManager_);
        accessManager = accessManager_;
    }

    /// The caller holds `role`, or is one of the system's own contracts (SYSTEM_MODULE_ROLE).
    modifier onlyRoleOrModule(bytes32 role) {
        _checkRoleOrModule(role, _msgSender());
        _;
    }

    function _checkRoleOrModule(bytes32 role, address account) internal view {
        IAccessControl manager = IAccessControl(accessManager);
        if (!manager.hasRole(role, account) && !manager.hasRole(SystemAccessRoles.SYSTEM_MODULE_ROLE, account)) {
            revert AccessControlUnauthorizedAccount(account, role);
        }
    }
}
