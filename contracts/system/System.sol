// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Compliance} from "../compliance/Compliance.sol";
import {ComplianceModuleBase} from "../compliance/modules/ComplianceModuleBase.sol";
import {IdentityFactory} from "../identity/IdentityFactory.sol";
import {IdentityRegistry} from "../identity/IdentityRegistry.sol";
import {IdentityRegistryStorage} from "../identity/IdentityRegistryStorage.sol";
import {TopicSchemeRegistry} from "../identity/TopicSchemeRegistry.sol";
import {TrustedIssuersMetaRegistry} from "../identity/TrustedIssuersMetaRegistry.sol";
import {TrustedIssuersRegistry} from "../identity/TrustedIssuersRegistry.sol";
import {IComplianceModule} from "../interfaces/IComplianceModule.sol";
import {TokenFactory} from "../token/TokenFactory.sol";
import {Directory} from "./Directory.sol";
import {ExchangeRateFeedRegistry} from "../exchange-rates/ExchangeRateFeedRegistry.sol";
import {DirectoryKeys} from "./DirectoryKeys.sol";
import {ISystemFactory} from "./ISystemFactory.sol";
import {SystemAccessManager} from "./SystemAccessManager.sol";
import {SystemAccessRoles} from "./SystemAccessRoles.sol";
import {AddonRegistry} from "./registries/AddonRegistry.sol";
import {ComplianceModuleRegistry} from "./registries/ComplianceModuleRegistry.sol";
import {ExternalTokenRegistry} from "./registries/ExternalTokenRegistry.sol";
import {ISystemManagedOracle} from "./registries/ISystemManagedOracle.sol";
import {TokenFactoryRegistry} from "./registries/TokenFactoryRegistry.sol";

/// @notice One organisation's system on one chain. Created by the root in one transaction: it clones and
/// wires the access manager, identity layer, compliance engine with every module, registries, token
/// factory (with the feature catalogue) and directory. Roles live in the access manager; `hasRole` here
/// answers for it, so contracts that take the system as their role source keep working.
contract System is Initializable, ISystemManagedOracle {
    /// The token type the system's single token factory is registered under.
    string public constant TOKEN_TYPE = "token";

    address public rootFactory;
    ISystemFactory.SystemContracts private _contracts;
    mapping(bytes32 typeIdHash => address module) private _moduleOfType;
    mapping(address => bool) private _isOwnContract;

    constructor() {
        _disableInitializers();
    }

    function initialize(address owner, address root)
        external
        initializer
        returns (ISystemFactory.SystemContracts memory)
    {
        rootFactory = root;
        ISystemFactory.Implementations memory impl = ISystemFactory(root).implementations();
        _createAccessManager(impl, owner);
        _createRegistries(impl);
        _createAddons(ISystemFactory(root).catalogue(), root);
        _createExchangeRateFeedRegistry(impl, root);
        _createIdentityLayer(impl, root);
        _createCompliance(impl, ISystemFactory(root).catalogue().complianceModules);
        _createTokenFactory(impl, root, ISystemFactory(root).catalogue());
        _createDirectory(impl, root);
        return _contracts;
    }

    // ---- reads ----

    function contracts() external view returns (ISystemFactory.SystemContracts memory) {
        return _contracts;
    }

    function accessManager() external view returns (address) {
        return _contracts.accessManager;
    }

    function tokenFactory() external view returns (address) {
        return _contracts.tokenFactory;
    }

    function compliance() external view returns (address) {
        return _contracts.compliance;
    }

    function identityRegistry() external view returns (address) {
        return _contracts.identityRegistry;
    }

    function identityFactory() external view returns (address) {
        return _contracts.identityFactory;
    }

    /// The system's instance of a compliance module type (e.g. "country-allow-list-v2"); zero if none.
    function complianceModule(string calldata typeId) external view returns (address) {
        return _moduleOfType[keccak256(bytes(typeId))];
    }

    function hasRole(bytes32 role, address account) external view returns (bool) {
        return IAccessControl(_contracts.accessManager).hasRole(role, account);
    }

    /// The system's own contracts and every token its factory created.
    function isSystemManaged(address account) external view returns (bool) {
        return account == address(this) || _isOwnContract[account]
            || TokenFactory(_contracts.tokenFactory).isToken(account);
    }

    // ---- creation steps ----

    function _clone(address implementation) private returns (address instance) {
        instance = Clones.clone(implementation);
        _isOwnContract[instance] = true;
    }

    function _createAccessManager(ISystemFactory.Implementations memory impl, address owner) private {
        SystemAccessManager manager = SystemAccessManager(_clone(impl.systemContracts.accessManager));
        _contracts.accessManager = address(manager);
        address[] memory admins = new address[](2);
        admins[0] = owner;
        admins[1] = address(this);
        manager.initialize(admins);
        bytes32[] memory people = new bytes32[](6);
        people[0] = SystemAccessRoles.SYSTEM_MANAGER_ROLE;
        people[1] = SystemAccessRoles.TOKEN_MANAGER_ROLE;
        people[2] = SystemAccessRoles.IDENTITY_MANAGER_ROLE;
        people[3] = SystemAccessRoles.COMPLIANCE_MANAGER_ROLE;
        people[4] = SystemAccessRoles.ADDON_MANAGER_ROLE;
        people[5] = SystemAccessRoles.CLAIM_POLICY_MANAGER_ROLE;
        manager.grantRoles(owner, people);
        // The system wires its own contracts during creation (module role for registries, manager role
        // for the token factory's and compliance engine's catalogues).
        bytes32[] memory own = new bytes32[](2);
        own[0] = SystemAccessRoles.SYSTEM_MODULE_ROLE;
        own[1] = SystemAccessRoles.SYSTEM_MANAGER_ROLE;
        manager.grantRoles(address(this), own);
    }

    function _createRegistries(ISystemFactory.Implementations memory impl) private {
        address manager = _contracts.accessManager;
        _contracts.tokenFactoryRegistry = _clone(impl.systemContracts.tokenFactoryRegistry);
        TokenFactoryRegistry(_contracts.tokenFactoryRegistry).initialize(manager);
        _contracts.complianceModuleRegistry = _clone(impl.systemContracts.complianceModuleRegistry);
        ComplianceModuleRegistry(_contracts.complianceModuleRegistry).initialize(manager);
        _contracts.addonRegistry = _clone(impl.systemContracts.addonRegistry);
        AddonRegistry(_contracts.addonRegistry).initialize(manager);
        _contracts.externalTokenRegistry = _clone(impl.systemContracts.externalTokenRegistry);
        ExternalTokenRegistry(_contracts.externalTokenRegistry).initialize(manager, address(this));
        // Registries hand out the factory roles (their admin is SYSTEM_MODULE_ROLE).
        address[] memory registries = new address[](4);
        registries[0] = _contracts.tokenFactoryRegistry;
        registries[1] = _contracts.complianceModuleRegistry;
        registries[2] = _contracts.addonRegistry;
        registries[3] = _contracts.externalTokenRegistry;
        SystemAccessManager(manager).grantRoleBatch(SystemAccessRoles.SYSTEM_MODULE_ROLE, registries);
    }

    /// The catalogue's addon types, each registered and its addon (factory) created with
    /// `initialize(registry, root)`: the root announces the instances the factory creates.
    function _createAddons(ISystemFactory.Catalogue memory catalogue, address root) private {
        AddonRegistry registry = AddonRegistry(_contracts.addonRegistry);
        for (uint256 i = 0; i < catalogue.addonTypes.length; i++) {
            bytes32 typeId = registry.registerAddonType(
                catalogue.addonTypes[i],
                AddonRegistry.AddonKind.Factory,
                catalogue.addonFactories[i],
                catalogue.addonInstances[i],
                false
            );
            registry.createAddon(
                typeId, catalogue.addonTypes[i], abi.encodeWithSignature("initialize(address,address)", address(registry), root)
            );
        }
    }

    /// Feeds it creates are announced by the root (which learns the registry from SystemContractsCreated).
    function _createExchangeRateFeedRegistry(ISystemFactory.Implementations memory impl, address root) private {
        _contracts.exchangeRateFeedRegistry = _clone(impl.systemContracts.exchangeRateFeedRegistry);
        ExchangeRateFeedRegistry(_contracts.exchangeRateFeedRegistry).initialize(_contracts.accessManager, root);
    }

    function _createIdentityLayer(ISystemFactory.Implementations memory impl, address root) private {
        address manager = _contracts.accessManager;
        address issuers = _clone(impl.systemContracts.trustedIssuersRegistry);
        TrustedIssuersRegistry(issuers).initialize(manager);
        address meta = _clone(impl.systemContracts.trustedIssuersMetaRegistry);
        TrustedIssuersMetaRegistry(meta).initialize(manager, issuers);
        address store = _clone(impl.systemContracts.identityRegistryStorage);
        address registry = _clone(impl.systemContracts.identityRegistry);
        IdentityRegistryStorage(store).initialize(manager, registry);
        IdentityRegistry(registry).initialize(manager, store, issuers, meta);
        address topics = _clone(impl.systemContracts.topicSchemeRegistry);
        TopicSchemeRegistry(topics).initialize(manager);
        address identities = _clone(impl.systemContracts.identityFactory);
        IdentityFactory(identities).initialize(manager, impl.identity, impl.contractIdentity, root);
        // One-call onboarding: the registry creates a wallet's identity through the factory.
        IdentityRegistry(registry).setIdentityFactory(identities);
        bytes32[] memory registryRoles = new bytes32[](1);
        registryRoles[0] = SystemAccessRoles.IDENTITY_MANAGER_ROLE;
        SystemAccessManager(manager).grantRoles(registry, registryRoles);
        _contracts.trustedIssuersRegistry = issuers;
        _contracts.trustedIssuersMetaRegistry = meta;
        _contracts.identityRegistryStorage = store;
        _contracts.identityRegistry = registry;
        _contracts.topicSchemeRegistry = topics;
        _contracts.identityFactory = identities;
    }

    function _createCompliance(ISystemFactory.Implementations memory impl, address[] memory modules) private {
        address engine = _clone(impl.systemContracts.compliance);
        _contracts.compliance = engine;
        Compliance(engine).initialize(_contracts.accessManager, _contracts.identityRegistry);
        ComplianceModuleRegistry moduleRegistry = ComplianceModuleRegistry(_contracts.complianceModuleRegistry);
        for (uint256 i = 0; i < modules.length; i++) {
            address module = _clone(modules[i]);
            ComplianceModuleBase(module).initialize(engine, _contracts.identityRegistry);
            Compliance(engine).registerModule(module);
            moduleRegistry.registerComplianceModule(module, false);
            _moduleOfType[keccak256(bytes(IComplianceModule(module).typeId()))] = module;
        }
    }

    function _createTokenFactory(
        ISystemFactory.Implementations memory impl,
        address root,
        ISystemFactory.Catalogue memory catalogue
    ) private {
        bytes memory init = abi.encodeCall(TokenFactory.initialize, (address(this), root, impl.token));
        (, address factory) = TokenFactoryRegistry(_contracts.tokenFactoryRegistry).registerTokenType(
            TOKEN_TYPE, impl.token, impl.systemContracts.tokenFactory, init, false
        );
        _contracts.tokenFactory = factory;
        _isOwnContract[factory] = true;
        TokenFactory(factory).registerFeatureImplementations(catalogue.featureIds, catalogue.features);
    }

    function _createDirectory(ISystemFactory.Implementations memory impl, address root) private {
        ISystemFactory.SystemContracts memory cloned = impl.systemContracts;
        address directory = _clone(cloned.directory);
        _contracts.directory = directory;
        bytes32[] memory keys = new bytes32[](23);
        address[] memory values = new address[](23);
        (keys[0], values[0]) = (DirectoryKeys.SYSTEM_IMPLEMENTATION, impl.system);
        (keys[1], values[1]) = (DirectoryKeys.SYSTEM_ACCESS_MANAGER_IMPLEMENTATION, cloned.accessManager);
        (keys[2], values[2]) = (DirectoryKeys.FORWARDER, impl.forwarder);
        (keys[3], values[3]) = (DirectoryKeys.SYSTEM_FACTORY, root);
        (keys[4], values[4]) = (DirectoryKeys.IDENTITY_FACTORY, _contracts.identityFactory);
        (keys[5], values[5]) = (DirectoryKeys.IDENTITY_FACTORY_IMPLEMENTATION, cloned.identityFactory);
        (keys[6], values[6]) = (DirectoryKeys.IDENTITY_IMPLEMENTATION, impl.identity);
        (keys[7], values[7]) = (DirectoryKeys.CONTRACT_IDENTITY_IMPLEMENTATION, impl.contractIdentity);
        (keys[8], values[8]) = (DirectoryKeys.COMPLIANCE_IMPLEMENTATION, cloned.compliance);
        (keys[9], values[9]) = (DirectoryKeys.IDENTITY_REGISTRY_IMPLEMENTATION, cloned.identityRegistry);
        (keys[10], values[10]) =
            (DirectoryKeys.IDENTITY_REGISTRY_STORAGE_IMPLEMENTATION, cloned.identityRegistryStorage);
        (keys[11], values[11]) = (DirectoryKeys.TRUSTED_ISSUERS_REGISTRY_IMPLEMENTATION, cloned.trustedIssuersRegistry);
        (keys[12], values[12]) =
            (DirectoryKeys.TRUSTED_ISSUERS_META_REGISTRY_IMPLEMENTATION, cloned.trustedIssuersMetaRegistry);
        (keys[13], values[13]) = (DirectoryKeys.TOPIC_SCHEME_REGISTRY_IMPLEMENTATION, cloned.topicSchemeRegistry);
        (keys[14], values[14]) = (DirectoryKeys.TOKEN_FACTORY_REGISTRY_IMPLEMENTATION, cloned.tokenFactoryRegistry);
        (keys[15], values[15]) =
            (DirectoryKeys.COMPLIANCE_MODULE_REGISTRY_IMPLEMENTATION, cloned.complianceModuleRegistry);
        (keys[16], values[16]) = (DirectoryKeys.ADDON_REGISTRY_IMPLEMENTATION, cloned.addonRegistry);
        (keys[17], values[17]) = (
            DirectoryKeys.IDENTITY_VERIFICATION_COMPLIANCE_MODULE,
            _moduleOfType[keccak256(bytes("identity-verification-v2"))]
        );
        (keys[18], values[18]) = (DirectoryKeys.EXTERNAL_TOKEN_REGISTRY_IMPLEMENTATION, cloned.externalTokenRegistry);
        (keys[19], values[19]) = (DirectoryKeys.TOKEN_FACTORY_REGISTRY, _contracts.tokenFactoryRegistry);
        (keys[20], values[20]) = (DirectoryKeys.COMPLIANCE_MODULE_REGISTRY, _contracts.complianceModuleRegistry);
        (keys[21], values[21]) = (DirectoryKeys.ADDON_REGISTRY, _contracts.addonRegistry);
        (keys[22], values[22]) = (DirectoryKeys.EXTERNAL_TOKEN_REGISTRY, _contracts.externalTokenRegistry);
        Directory(directory).initialize(_contracts.accessManager, keys, values);
    }
}
