// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {ISystemFactory} from "../system/ISystemFactory.sol";
import {SystemRoles} from "../system/SystemRoles.sol";
import {Token} from "./Token.sol";

/// @notice Creates a system's tokens as clones of the token implementation; the root announces each.
contract TokenFactory is Initializable {
    address public system;
    address public rootFactory;
    address public tokenImplementation;

    error MissingTokenManagerRole(address account);

    constructor() {
        _disableInitializers();
    }

    function initialize(address system_, address root, address tokenImpl) external initializer {
        system = system_;
        rootFactory = root;
        tokenImplementation = tokenImpl;
    }

    function createToken(string calldata tokenType, string calldata name, string calldata symbol, uint8 decimals)
        external
        returns (address token)
    {
        if (!IAccessControl(system).hasRole(SystemRoles.TOKEN_MANAGER_ROLE, msg.sender)) {
            revert MissingTokenManagerRole(msg.sender);
        }
        token = Clones.clone(tokenImplementation);
        Token(token).initialize(name, symbol, decimals, msg.sender, system);
        ISystemFactory(rootFactory).announceToken(msg.sender, token, tokenType, name, symbol, decimals);
    }
}
