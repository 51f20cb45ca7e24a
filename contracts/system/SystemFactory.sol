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

    function announceToken(TokenAnnouncement calldata a) external {
        address system = systemOfTokenFactory[msg.sender];
        if (system == address(0)) revert UnknownTokenFactory(msg.sender);
        _emitTokenCreated(a, system);
        for (uint256 i = 0; i < a.features.length; i++) {
            emit FeatureAttached(a.sender, a.token, a.features[i], a.featureIds[i], a.featureParams[i]);
        }
    }

    function _emitTokenCreated(TokenAnnouncement memory a, address system) private {
        emit TokenCreated(
            a.sender,
            a.token,
            system,
            msg.sender,
            a.tokenType,
            a.name,
            a.symbol,
            a.decimals,
            a.compliance,
            a.featureIds,
            a.features
        );
    }
}
