// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {SystemAccessRoles} from "../SystemAccessRoles.sol";
import {ContractProbe} from "./ContractProbe.sol";
import {TypeRegistry} from "./TypeRegistry.sol";

/// @notice The system's addon types (the directory's addonTypes) and the addons created from them
/// (the spec's addon factories): one addon per type, a clone of the type's factory implementation.
contract AddonRegistry is TypeRegistry {
    /// ABI uint8: 0 unknown, 1 factory, 2 singleton.
    enum AddonKind {
        Unknown,
        Factory,
        Singleton
    }

    /// For a factory, `factoryImplementation` is the factory's code and `instanceImplementation` the code
    /// of what it creates; for a singleton (or unknown) `factoryImplementation` is the single
    /// implementation pointer and `instanceImplementation` is address 0.
    struct AddonType {
        string name;
        AddonKind kind;
        address factoryImplementation;
        address instanceImplementation;
        uint64 registeredAt;
        bool isExperimental;
    }

    struct Addon {
        bytes32 typeId;
        string name;
        uint256 version;
    }

    /// typeId = keccak256(bytes(name)), name being the spec's type id string (e.g. "xvp-settlement").
    event AddonTypeRegistered(
        address indexed sender,
        bytes32 indexed typeId,
        string name,
        AddonKind kind,
        address factoryImplementation,
        address instanceImplementation,
        uint256 registeredAt,
        bool isExperimental
    );
    event AddonTypeUpdated(
        address indexed sender,
        bytes32 indexed typeId,
        address factoryImplementation,
        address instanceImplementation,
        bool isExperimental
    );
    event AddonTypeRemoved(address indexed sender, bytes32 indexed typeId);
    /// One addon factory list item: id = `addon` (also its `account`), `typeName` is the spec's typeId
    /// string. systemAddonImplementation is set for singletons only, instanceImplementation for factories only.
    event AddonFactoryCreated(
        address indexed sender,
        address indexed addon,
        bytes32 indexed typeId,
        string name,
        string typeName,
        AddonKind kind,
        address systemAddonImplementation,
        address factoryImplementation,
        address instanceImplementation,
        uint256 version
    );
    event AddonFactoryRemoved(address indexed sender, address indexed addon, bytes32 indexed typeId);

    error EmptyName();
    error InvalidImplementation(address implementation);
    error UnexpectedInstanceImplementation(AddonKind kind, address instanceImplementation);
    error AddonTypeAlreadyRegistered(bytes32 typeId, string name);
    error AddonTypeNotRegistered(bytes32 typeId);
    error AddonTypeInUse(bytes32 typeId, address addon);
    error AddonAlreadyCreated(bytes32 typeId, address addon);
    error AddonNotRegistered(address addon);

    mapping(bytes32 typeId => AddonType) private _types;
    mapping(bytes32 typeId => address addon) private _addonOfType;
    mapping(address addon => Addon) private _addons;

    constructor(address forwarder) TypeRegistry(forwarder) {}

    function registerAddonType(
        string calldata name,
        AddonKind kind,
        address factoryImplementation,
        address instanceImplementation,
        bool isExperimental
    ) external onlyRoleOrModule(SystemAccessRoles.ADDON_MANAGER_ROLE) returns (bytes32 typeId) {
        if (bytes(name).length == 0) revert EmptyName();
        typeId = keccak256(bytes(name));
        if (_types[typeId].registeredAt != 0) revert AddonTypeAlreadyRegistered(typeId, name);
        _checkImplementations(kind, factoryImplementation, instanceImplementation);
        _types[typeId] = AddonType(
            name, kind, factoryImplementation, instanceImplementation, uint64(block.timestamp), isExperimental
        );
        _listTypeId(typeId);
        emit AddonTypeRegistered(
            _msgSender(),
            typeId,
            name,
            kind,
            factoryImplementation,
            instanceImplementation,
            block.timestamp,
            isExperimental
        );
    }

    /// New implementation pointers for future addons of the type; a factory may read its instance
    /// implementation here (`instanceImplementationOf`), so an update reaches what it creates next.
    function updateAddonType(
        bytes32 typeId,
        address factoryImplementation,
        address instanceImplementation,
        bool isExperimental
    ) external onlyRoleOrModule(SystemAccessRoles.ADDON_MANAGER_ROLE) {
        AddonType storage entry = _existing(typeId);
        _checkImplementations(entry.kind, factoryImplementation, instanceImplementation);
        entry.factoryImplementation = factoryImplementation;
        entry.instanceImplementation = instanceImplementation;
        entry.isExperimental = isExperimental;
        emit AddonTypeUpdated(_msgSender(), typeId, factoryImplementation, instanceImplementation, isExperimental);
    }

    function removeAddonType(bytes32 typeId) external onlyRoleOrModule(SystemAccessRoles.ADDON_MANAGER_ROLE) {
        _existing(typeId);
        address existing = _addonOfType[typeId];
        if (existing != address(0)) revert AddonTypeInUse(typeId, existing);
        delete _types[typeId];
        _unlistTypeId(typeId);
        emit AddonTypeRemoved(_msgSender(), typeId);
    }

    /// Clones the type's factory (or singleton) implementation, calls it with `initData` (its
    /// initializer) and grants it ADDON_FACTORY_MODULE_ROLE (this registry needs SYSTEM_MODULE_ROLE).
    /// The addon's `version()` is read once (1 when it has none).
    function createAddon(bytes32 typeId, string calldata name, bytes calldata initData)
        external
        onlyRoleOrModule(SystemAccessRoles.ADDON_MANAGER_ROLE)
        returns (address instance)
    {
        if (bytes(name).length == 0) revert EmptyName();
        AddonType storage entry = _existing(typeId);
        if (_addonOfType[typeId] != address(0)) revert AddonAlreadyCreated(typeId, _addonOfType[typeId]);

        instance = Clones.clone(entry.factoryImplementation);
        if (initData.length > 0) Address.functionCall(instance, initData);
        IAccessControl(accessManager).grantRole(SystemAccessRoles.ADDON_FACTORY_MODULE_ROLE, instance);

        uint256 version = _versionOf(instance);
        _addonOfType[typeId] = instance;
        _addons[instance] = Addon(typeId, name, version);
        _emitCreated(instance, typeId, entry, name, version);
    }

    function removeAddon(address addon_) external onlyRoleOrModule(SystemAccessRoles.ADDON_MANAGER_ROLE) {
        bytes32 typeId = _addons[addon_].typeId;
        if (typeId == bytes32(0)) revert AddonNotRegistered(addon_);
        IAccessControl(accessManager).revokeRole(SystemAccessRoles.ADDON_FACTORY_MODULE_ROLE, addon_);
        delete _addons[addon_];
        delete _addonOfType[typeId];
        emit AddonFactoryRemoved(_msgSender(), addon_, typeId);
    }

    function addonType(bytes32 typeId) external view returns (AddonType memory) {
        return _types[typeId];
    }

    /// The spec's single read: name, typeId (bytes32 and string), kind and version (0 when unknown).
    function addon(address addon_)
        external
        view
        returns (string memory name, bytes32 typeId, string memory typeName, AddonKind kind, uint256 version)
    {
        Addon storage entry = _addons[addon_];
        return (entry.name, entry.typeId, _types[entry.typeId].name, _types[entry.typeId].kind, entry.version);
    }

    function addonOf(bytes32 typeId) external view returns (address) {
        return _addonOfType[typeId];
    }

    function isAddon(address addon_) external view returns (bool) {
        return _addons[addon_].typeId != bytes32(0);
    }

    /// The current instance implementation for a factory addon (address 0 for singletons and strangers).
    function instanceImplementationOf(address addon_) external view returns (address) {
        return _types[_addons[addon_].typeId].instanceImplementation;
    }

    function _emitCreated(
        address addon_,
        bytes32 typeId,
        AddonType storage entry,
        string calldata name,
        uint256 version
    ) private {
        AddonKind kind = entry.kind;
        emit AddonFactoryCreated(
            _msgSender(),
            addon_,
            typeId,
            name,
            entry.name,
            kind,
            kind == AddonKind.Singleton ? entry.factoryImplementation : address(0),
            entry.factoryImplementation,
            entry.instanceImplementation,
            version
        );
    }

    function _versionOf(address addon_) private view returns (uint256) {
        (bool found, uint256 version) = ContractProbe.readUint(addon_, abi.encodeWithSignature("version()"));
        return found && version != 0 ? version : 1;
    }

    function _checkImplementations(AddonKind kind, address factoryImplementation, address instanceImplementation)
        private
        view
    {
        if (factoryImplementation.code.length == 0) revert InvalidImplementation(factoryImplementation);
        if (kind == AddonKind.Factory) {
            if (instanceImplementation.code.length == 0) revert InvalidImplementation(instanceImplementation);
        } else if (instanceImplementation != address(0)) {
            revert UnexpectedInstanceImplementation(kind, instanceImplementation);
        }
    }

    function _existing(bytes32 typeId) private view returns (AddonType storage addonType_) {
        addonType_ = _types[typeId];
        if (addonType_.registeredAt == 0) revert AddonTypeNotRegistered(typeId);
    }
}
