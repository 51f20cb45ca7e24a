// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {SystemAccessRoles} from "../SystemAccessRoles.sol";
import {TypeRegistry} from "./TypeRegistry.sol";

/// @notice The system's token types (the directory's tokenTypes): each type gets its own token factory,
/// a clone of the type's factory implementation initialised with calldata the caller provides.
contract TokenFactoryRegistry is TypeRegistry {
    struct TokenType {
        string name;
        address implementation;
        address factoryImplementation;
        address factory;
        uint64 registeredAt;
        bool isExperimental;
    }

    /// typeId = keccak256(bytes(name)); registeredAt = block timestamp.
    event TokenTypeRegistered(
        address indexed sender,
        bytes32 indexed typeId,
        address indexed factory,
        string name,
        address implementation,
        address factoryImplementation,
        uint256 registeredAt,
        bool isExperimental
    );
    event TokenTypeUpdated(address indexed sender, bytes32 indexed typeId, address implementation, bool isExperimental);
    event TokenTypeRemoved(address indexed sender, bytes32 indexed typeId, address indexed factory);

    error EmptyTypeName();
    error TokenTypeAlreadyRegistered(bytes32 typeId, string name);
    error TokenTypeNotRegistered(bytes32 typeId);
    error InvalidImplementation(address implementation);

    mapping(bytes32 typeId => TokenType) private _types;
    mapping(address factory => bytes32 typeId) private _typeIdOfFactory;

    constructor(address forwarder) TypeRegistry(forwarder) {}

    /// Clones `factoryImplementation`, calls it with `factoryInitData` (its initializer) and grants it
    /// TOKEN_FACTORY_MODULE_ROLE, which needs this registry to hold SYSTEM_MODULE_ROLE.
    function registerTokenType(
        string calldata name,
        address implementation,
        address factoryImplementation,
        bytes calldata factoryInitData,
        bool isExperimental
    ) external onlyRoleOrModule(SystemAccessRoles.SYSTEM_MANAGER_ROLE) returns (bytes32 typeId, address factory) {
        if (bytes(name).length == 0) revert EmptyTypeName();
        typeId = keccak256(bytes(name));
        if (_types[typeId].registeredAt != 0) revert TokenTypeAlreadyRegistered(typeId, name);
        _requireCode(implementation);
        _requireCode(factoryImplementation);

        factory = Clones.clone(factoryImplementation);
        if (factoryInitData.length > 0) Address.functionCall(factory, factoryInitData);
        IAccessControl(accessManager).grantRole(SystemAccessRoles.TOKEN_FACTORY_MODULE_ROLE, factory);

        _types[typeId] = TokenType(
            name, implementation, factoryImplementation, factory, uint64(block.timestamp), isExperimental
        );
        _typeIdOfFactory[factory] = typeId;
        _listTypeId(typeId);
        emit TokenTypeRegistered(
            _msgSender(),
            typeId,
            factory,
            name,
            implementation,
            factoryImplementation,
            block.timestamp,
            isExperimental
        );
    }

    /// Records a new token implementation for the type (its factory may read it here) and the flag.
    function updateTokenType(bytes32 typeId, address implementation, bool isExperimental)
        external
        onlyRoleOrModule(SystemAccessRoles.SYSTEM_MANAGER_ROLE)
    {
        TokenType storage entry = _existing(typeId);
        _requireCode(implementation);
        entry.implementation = implementation;
        entry.isExperimental = isExperimental;
        emit TokenTypeUpdated(_msgSender(), typeId, implementation, isExperimental);
    }

    /// Drops the type and revokes its factory's role; tokens it created stay as they are.
    function removeTokenType(bytes32 typeId) external onlyRoleOrModule(SystemAccessRoles.SYSTEM_MANAGER_ROLE) {
        address factory = _existing(typeId).factory;
        IAccessControl(accessManager).revokeRole(SystemAccessRoles.TOKEN_FACTORY_MODULE_ROLE, factory);
        delete _types[typeId];
        delete _typeIdOfFactory[factory];
        _unlistTypeId(typeId);
        emit TokenTypeRemoved(_msgSender(), typeId, factory);
    }

    function tokenType(bytes32 typeId) external view returns (TokenType memory) {
        return _types[typeId];
    }

    function factoryOf(bytes32 typeId) external view returns (address) {
        return _types[typeId].factory;
    }

    /// Whether `factory` is a current token factory of this system (for the root's announce checks).
    function isFactory(address factory) external view returns (bool) {
        return _typeIdOfFactory[factory] != bytes32(0);
    }

    function typeIdOfFactory(address factory) external view returns (bytes32) {
        return _typeIdOfFactory[factory];
    }

    function _existing(bytes32 typeId) private view returns (TokenType storage tokenType_) {
        tokenType_ = _types[typeId];
        if (tokenType_.registeredAt == 0) revert TokenTypeNotRegistered(typeId);
    }

    function _requireCode(address implementation) private view {
        if (implementation.code.length == 0) revert InvalidImplementation(implementation);
    }
}
