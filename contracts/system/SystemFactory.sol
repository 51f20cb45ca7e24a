// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {ISystemFactory} from "./ISystemFactory.sol";
import {System} from "./System.sol";

/// @notice Root factory. Deployed with CREATE2 (fixed salt, implementation addresses as the only
/// constructor arguments), so its address is the same on every chain for the same build.
contract SystemFactory is ISystemFactory {
    address public immutable systemImplementation;
    address public immutable tokenFactoryImplementation;
    address public immutable tokenImplementation;

    mapping(address system => bool) public isSystem;
    mapping(address tokenFactory => address system) public systemOfTokenFactory;

    constructor(address systemImpl, address tokenFactoryImpl, address tokenImpl) {
        systemImplementation = systemImpl;
        tokenFactoryImplementation = tokenFactoryImpl;
        tokenImplementation = tokenImpl;
    }

    function createSystem(address owner) external returns (address system) {
        system = Clones.clone(systemImplementation);
        isSystem[system] = true;
        address tokenFactory = System(system).initialize(owner, address(this), tokenFactoryImplementation, tokenImplementation);
        systemOfTokenFactory[tokenFactory] = system;
        emit SystemCreated(msg.sender, system, owner, tokenFactory);
    }

    function announceToken(
        address sender,
        address token,
        string calldata tokenType,
        string calldata name,
        string calldata symbol,
        uint8 decimals
    ) external {
        address system = systemOfTokenFactory[msg.sender];
        if (system == address(0)) revert UnknownTokenFactory(msg.sender);
        emit TokenCreated(sender, token, system, msg.sender, tokenType, name, symbol, decimals);
    }
}
