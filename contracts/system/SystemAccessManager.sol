// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {ERC2771ContextUpgradeable} from "@openzeppelin/contracts-upgradeable/metatx/ERC2771ContextUpgradeable.sol";
import {ContextUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/ContextUpgradeable.sol";
import {SystemAccessRoles} from "./SystemAccessRoles.sol";

/// @notice A system's roles. Every system contract asks it `hasRole`; OpenZeppelin's RoleGranted and
/// RoleRevoked events carry the sender. Calls relayed by the trusted forwarder act for the signer.
contract SystemAccessManager is AccessControlUpgradeable, ERC2771ContextUpgradeable {
    error NoInitialAdmin();
    error EmptyBatch();

    /// @param forwarder The chain's ERC-2771 forwarder (an immutable shared by every clone).
    constructor(address forwarder) ERC2771ContextUpgradeable(forwarder) {
        _disableInitializers();
    }

    /// @param admins Accounts given DEFAULT_ADMIN_ROLE (typically the owner and the System contract).
    function initialize(address[] calldata admins) external initializer {
        if (admins.length == 0) revert NoInitialAdmin();
        __AccessControl_init();
        // Factory and registry-writer roles are handed out by the system's own registries.
        _setRoleAdmin(SystemAccessRoles.TOKEN_FACTORY_MODULE_ROLE, SystemAccessRoles.SYSTEM_MODULE_ROLE);
        _setRoleAdmin(SystemAccessRoles.ADDON_FACTORY_MODULE_ROLE, SystemAccessRoles.SYSTEM_MODULE_ROLE);
        _setRoleAdmin(SystemAccessRoles.IDENTITY_REGISTRY_MODULE_ROLE, SystemAccessRoles.SYSTEM_MODULE_ROLE);
        for (uint256 i = 0; i < admins.length; i++) {
            _grantRole(DEFAULT_ADMIN_ROLE, admins[i]);
        }
    }

    /// Grants one role to many accounts; the caller needs the role's admin role.
    function grantRoleBatch(bytes32 role, address[] calldata accounts) external {
        if (accounts.length == 0) revert EmptyBatch();
        _checkRole(getRoleAdmin(role));
        for (uint256 i = 0; i < accounts.length; i++) {
            _grantRole(role, accounts[i]);
        }
    }

    /// Revokes one role from many accounts; the caller needs the role's admin role.
    function revokeRoleBatch(bytes32 role, address[] calldata accounts) external {
        if (accounts.length == 0) revert EmptyBatch();
        _checkRole(getRoleAdmin(role));
        for (uint256 i = 0; i < accounts.length; i++) {
            _revokeRole(role, accounts[i]);
        }
    }

    /// Grants many roles to one account; the caller needs each role's admin role.
    function grantRoles(address account, bytes32[] calldata roles) external {
        if (roles.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < roles.length; i++) {
            _checkRole(getRoleAdmin(roles[i]));
            _grantRole(roles[i], account);
        }
    }

    /// Revokes many roles from one account; the caller needs each role's admin role.
    function revokeRoles(address account, bytes32[] calldata roles) external {
        if (roles.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < roles.length; i++) {
            _checkRole(getRoleAdmin(roles[i]));
            _revokeRole(roles[i], account);
        }
    }

    function hasAnyRole(bytes32[] calldata roles, address account) external view returns (bool) {
        for (uint256 i = 0; i < roles.length; i++) {
            if (hasRole(roles[i], account)) return true;
        }
        return false;
    }

    function _msgSender() internal view override(ContextUpgradeable, ERC2771ContextUpgradeable) returns (address) {
        return ERC2771ContextUpgradeable._msgSender();
    }

    function _msgData() internal view override(ContextUpgradeable, ERC2771ContextUpgradeable) returns (bytes calldata) {
        return ERC2771ContextUpgradeable._msgData();
    }

    function _contextSuffixLength()
        internal
        view
        override(ContextUpgradeable, ERC2771ContextUpgradeable)
        returns (uint256)
    {
        return ERC2771ContextUpgradeable._contextSuffixLength();
    }
}
