// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {TokenFactory} from "../token/TokenFactory.sol";
import {SystemRoles} from "./SystemRoles.sol";

/// @notice One organisation's system on one chain: its roles and its registries (the token
/// factory today; identity, compliance and addon registries attach here as they arrive).
contract System is AccessControlUpgradeable {
    address public rootFactory;
    address public tokenFactory;

    constructor() {
        _disableInitializers();
    }

    function initialize(address owner, address root, address tokenFactoryImpl, address tokenImpl)
        external
        initializer
        returns (address)
    {
        __AccessControl_init();
        rootFactory = root;
        _grantRole(DEFAULT_ADMIN_ROLE, owner);
        _grantRole(SystemRoles.SYSTEM_MANAGER_ROLE, owner);
        _grantRole(SystemRoles.TOKEN_MANAGER_ROLE, owner);
        tokenFactory = Clones.clone(tokenFactoryImpl);
        TokenFactory(tokenFactory).initialize(address(this), root, tokenImpl);
        return tokenFactory;
    }
}
