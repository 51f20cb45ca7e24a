// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IComplianceModule} from "../../interfaces/IComplianceModule.sol";
import {SystemAccessRoles} from "../SystemAccessRoles.sol";
import {ContractProbe} from "./ContractProbe.sol";
import {TypeRegistry} from "./TypeRegistry.sol";

/// @notice The system's compliance module types (the directory's complianceModuleTypes). A type is a
/// shared module deployment; its name is the module's own `typeId()` string, typeId = keccak256(name).
contract ComplianceModuleRegistry is TypeRegistry {
    struct ComplianceModuleType {
        string name;
        address implementation;
        uint64 registeredAt;
        bool isExperimental;
    }

    event ComplianceModuleTypeRegistered(
        address indexed sender,
        bytes32 indexed typeId,
        address indexed implementation,
        string name,
        uint256 registeredAt,
        bool isExperimental
    );
    event ComplianceModuleTypeUpdated(
        address indexed sender, bytes32 indexed typeId, address indexed implementation, bool isExperimental
    );
    event ComplianceModuleTypeRemoved(address indexed sender, bytes32 indexed typeId, address indexed implementation);

    error InvalidComplianceModule(address module);
    error ComplianceModuleTypeAlreadyRegistered(bytes32 typeId, string name);
    error ComplianceModuleTypeNotRegistered(bytes32 typeId);
    error ComplianceModuleTypeMismatch(bytes32 typeId, string name);
    error ComplianceModuleAlreadyRegistered(address module);

    mapping(bytes32 typeId => ComplianceModuleType) private _types;
    mapping(address module => bytes32 typeId) private _typeIdOfModule;

    constructor(address forwarder) TypeRegistry(forwarder) {}

    function registerComplianceModule(address module, bool isExperimental)
        external
        onlyRoleOrModule(SystemAccessRoles.COMPLIANCE_MANAGER_ROLE)
        returns (bytes32 typeId)
    {
        string memory name = _moduleName(module);
        typeId = keccak256(bytes(name));
        if (_types[typeId].registeredAt != 0) revert ComplianceModuleTypeAlreadyRegistered(typeId, name);
        if (_typeIdOfModule[module] != bytes32(0)) revert ComplianceModuleAlreadyRegistered(module);
        _types[typeId] = ComplianceModuleType(name, module, uint64(block.timestamp), isExperimental);
        _typeIdOfModule[module] = typeId;
        _listTypeId(typeId);
        emit ComplianceModuleTypeRegistered(_msgSender(), typeId, module, name, block.timestamp, isExperimental);
    }

    /// Points the type at another deployment of the same module type (its `typeId()` must match).
    function updateComplianceModuleType(bytes32 typeId, address module, bool isExperimental)
        external
        onlyRoleOrModule(SystemAccessRoles.COMPLIANCE_MANAGER_ROLE)
    {
        ComplianceModuleType storage moduleType = _existing(typeId);
        string memory name = _moduleName(module);
        if (keccak256(bytes(name)) != typeId) revert ComplianceModuleTypeMismatch(typeId, name);
        if (module != moduleType.implementation) {
            if (_typeIdOfModule[module] != bytes32(0)) revert ComplianceModuleAlreadyRegistered(module);
            delete _typeIdOfModule[moduleType.implementation];
            _typeIdOfModule[module] = typeId;
            moduleType.implementation = module;
        }
        moduleType.isExperimental = isExperimental;
        emit ComplianceModuleTypeUpdated(_msgSender(), typeId, module, isExperimental);
    }

    function removeComplianceModuleType(bytes32 typeId)
        external
        onlyRoleOrModule(SystemAccessRoles.COMPLIANCE_MANAGER_ROLE)
    {
        address module = _existing(typeId).implementation;
        delete _types[typeId];
        delete _typeIdOfModule[module];
        _unlistTypeId(typeId);
        emit ComplianceModuleTypeRemoved(_msgSender(), typeId, module);
    }

    function complianceModuleType(bytes32 typeId) external view returns (ComplianceModuleType memory) {
        return _types[typeId];
    }

    function moduleOf(bytes32 typeId) external view returns (address) {
        return _types[typeId].implementation;
    }

    /// Whether `module` is a current registered module (for the compliance engine's add checks).
    function isRegisteredModule(address module) external view returns (bool) {
        return _typeIdOfModule[module] != bytes32(0);
    }

    function typeIdOfModule(address module) external view returns (bytes32) {
        return _typeIdOfModule[module];
    }

    function _moduleName(address module) private view returns (string memory name) {
        if (module.code.length == 0) revert InvalidComplianceModule(module);
        name = ContractProbe.readString(module, IComplianceModule.typeId.selector);
        if (bytes(name).length == 0) revert InvalidComplianceModule(module);
    }

    function _existing(bytes32 typeId) private view returns (ComplianceModuleType storage moduleType) {
        moduleType = _types[typeId];
        if (moduleType.registeredAt == 0) revert ComplianceModuleTypeNotRegistered(typeId);
    }
}
