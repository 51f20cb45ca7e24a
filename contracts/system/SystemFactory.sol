// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {IAddonInstanceAnnouncer} from "../addons/IAddonInstanceAnnouncer.sol";
import {IExchangeRateFeedAnnouncer} from "../exchange-rates/IExchangeRateFeedAnnouncer.sol";
import {IIdentityAnnouncer} from "../identity/IIdentityAnnouncer.sol";
import {ISystemFactory} from "./ISystemFactory.sol";
import {System} from "./System.sol";
import {AddonRegistry} from "./registries/AddonRegistry.sol";

interface IAddonFactoryOfRegistry {
    function addonRegistry() external view returns (address);
}

/// @notice Root factory. Deployed with CREATE2 (fixed salt, the implementations and catalogue as the only
/// constructor arguments), so its address is the same on every chain for the same build.
contract SystemFactory is ISystemFactory, IIdentityAnnouncer, IExchangeRateFeedAnnouncer, IAddonInstanceAnnouncer {
    Implementations private _implementations;
    Catalogue private _catalogue;

    mapping(address system => bool) public isSystem;
    mapping(address tokenFactory => address system) public systemOfTokenFactory;
    mapping(address identityFactory => address system) public systemOfIdentityFactory;
    mapping(address feedRegistry => address system) public systemOfExchangeRateFeedRegistry;
    mapping(address addonRegistry => address system) public systemOfAddonRegistry;

    constructor(Implementations memory implementations_, Catalogue memory catalogue_) {
        if (catalogue_.featureIds.length != catalogue_.features.length) {
            revert CatalogueLengthMismatch(catalogue_.featureIds.length, catalogue_.features.length);
        }
        if (
            catalogue_.addonTypes.length != catalogue_.addonFactories.length
                || catalogue_.addonTypes.length != catalogue_.addonInstances.length
        ) {
            revert AddonCatalogueLengthMismatch(
                catalogue_.addonTypes.length, catalogue_.addonFactories.length, catalogue_.addonInstances.length
            );
        }
        _implementations = implementations_;
        _catalogue = catalogue_;
    }

    function implementations() external view returns (Implementations memory) {
        return _implementations;
    }

    function catalogue() external view returns (Catalogue memory) {
        return _catalogue;
    }

    function createSystem(address owner) external returns (address system) {
        system = Clones.clone(_implementations.system);
        isSystem[system] = true;
        SystemContracts memory c = System(system).initialize(owner, address(this));
        systemOfTokenFactory[c.tokenFactory] = system;
        systemOfIdentityFactory[c.identityFactory] = system;
        systemOfExchangeRateFeedRegistry[c.exchangeRateFeedRegistry] = system;
        systemOfAddonRegistry[c.addonRegistry] = system;
        emit SystemCreated(
            msg.sender,
            system,
            owner,
            c.tokenFactory,
            c.accessManager,
            c.compliance,
            c.identityRegistry,
            c.identityFactory,
            c.directory
        );
        emit SystemContractsCreated(system, c);
    }

    function announceToken(TokenAnnouncement calldata a) external {
        address system = systemOfTokenFactory[msg.sender];
        if (system == address(0)) revert UnknownTokenFactory(msg.sender);
        _emitTokenCreated(a, system);
        for (uint256 i = 0; i < a.features.length; i++) {
            emit FeatureAttached(a.sender, a.token, a.features[i], a.featureIds[i], a.featureParams[i]);
        }
    }

    function announceIdentity(address sender, address account, address identity, bool isContract) external {
        address system = systemOfIdentityFactory[msg.sender];
        if (system == address(0)) revert UnknownIdentityFactory(msg.sender);
        emit IdentityCreated(sender, system, account, identity, isContract);
    }

    function announceExchangeRateFeed(
        address sender,
        address feed,
        string calldata baseCurrency,
        string calldata quoteCurrency,
        uint8 decimals
    ) external {
        address system = systemOfExchangeRateFeedRegistry[msg.sender];
        if (system == address(0)) revert UnknownExchangeRateFeedRegistry(msg.sender);
        emit ExchangeRateFeedCreated(sender, system, feed, baseCurrency, quoteCurrency, decimals);
    }

    /// The caller must be an addon its own registry lists, that registry one of a system of this root.
    function announceAddonInstance(address instance, bytes calldata params) external {
        address registry;
        try IAddonFactoryOfRegistry(msg.sender).addonRegistry() returns (address found) {
            registry = found;
        } catch {
            revert UnknownAddon(msg.sender);
        }
        address system = systemOfAddonRegistry[registry];
        if (system == address(0) || !AddonRegistry(registry).isAddon(msg.sender)) revert UnknownAddon(msg.sender);
        (,, string memory typeName,,) = AddonRegistry(registry).addon(msg.sender);
        emit AddonInstanceCreated(system, msg.sender, instance, typeName, params);
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
