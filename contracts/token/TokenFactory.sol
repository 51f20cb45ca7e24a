// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {FeatureRules} from "../features/FeatureRules.sol";
import {TokenFeature} from "../features/TokenFeature.sol";
import {ISystemFactory} from "../system/ISystemFactory.sol";
import {SystemRoles} from "../system/SystemRoles.sol";
import {Token} from "./Token.sol";

/// @notice Creates a system's tokens as clones of the token implementation, with features cloned from
/// the system's feature-type registry (feature id → implementation, kept here by the system manager);
/// the root announces each token and each feature instance.
contract TokenFactory is Initializable {
    struct FeatureConfig {
        string featureId;
        bytes params;
    }

    struct ModuleConfig {
        address module;
        bytes params;
    }

    struct TokenSpec {
        string tokenType;
        string name;
        string symbol;
        uint8 decimals;
        address compliance;
    }

    address public system;
    address public rootFactory;
    address public tokenImplementation;
    mapping(string featureId => address) public featureImplementation;
    string[] private _registeredFeatureIds;
    mapping(address token => bool) public isToken;

    event FeatureImplementationRegistered(address indexed sender, string featureId, address indexed implementation);

    error MissingTokenManagerRole(address account);
    error MissingSystemManagerRole(address account);
    error LengthMismatch(uint256 featureIds, uint256 implementations);
    error FeatureImplementationMismatch(string featureId, address implementation);

    constructor() {
        _disableInitializers();
    }

    function initialize(address system_, address root, address tokenImpl) external initializer {
        system = system_;
        rootFactory = root;
        tokenImplementation = tokenImpl;
    }

    /// Registers (or replaces) feature implementations; each must report the id it is registered under.
    function registerFeatureImplementations(string[] calldata featureIds, address[] calldata implementations)
        external
    {
        if (!IAccessControl(system).hasRole(SystemRoles.SYSTEM_MANAGER_ROLE, msg.sender)) {
            revert MissingSystemManagerRole(msg.sender);
        }
        if (featureIds.length != implementations.length) {
            revert LengthMismatch(featureIds.length, implementations.length);
        }
        for (uint256 i = 0; i < featureIds.length; i++) {
            string calldata id = featureIds[i];
            address implementation = implementations[i];
            if (keccak256(bytes(TokenFeature(implementation).featureId())) != keccak256(bytes(id))) {
                revert FeatureImplementationMismatch(id, implementation);
            }
            if (featureImplementation[id] == address(0)) _registeredFeatureIds.push(id);
            featureImplementation[id] = implementation;
            emit FeatureImplementationRegistered(msg.sender, id, implementation);
        }
    }

    function registeredFeatureIds() external view returns (string[] memory) {
        return _registeredFeatureIds;
    }

    /// The platform's original entry point: a token without features or compliance.
    function createToken(string calldata tokenType, string calldata name, string calldata symbol, uint8 decimals)
        external
        returns (address token)
    {
        return _create(
            TokenSpec(tokenType, name, symbol, decimals, address(0)), new FeatureConfig[](0), new ModuleConfig[](0)
        );
    }

    /// A token with features (ids and ABI-encoded params, rules checked on chain) and an optional
    /// compliance engine with initial modules (compliance = address(0) for none).
    function createTokenWithFeatures(
        string calldata tokenType,
        string calldata name,
        string calldata symbol,
        uint8 decimals,
        FeatureConfig[] calldata features,
        address compliance,
        ModuleConfig[] calldata modules
    ) external returns (address token) {
        return _create(TokenSpec(tokenType, name, symbol, decimals, compliance), features, modules);
    }

    function _create(TokenSpec memory spec, FeatureConfig[] memory configs, ModuleConfig[] memory modules)
        private
        returns (address token)
    {
        if (!IAccessControl(system).hasRole(SystemRoles.TOKEN_MANAGER_ROLE, msg.sender)) {
            revert MissingTokenManagerRole(msg.sender);
        }
        (string[] memory ids, address[] memory features, bytes[] memory params) = _cloneFeatures(configs);
        token = Clones.clone(tokenImplementation);
        isToken[token] = true;
        _initializeToken(token, spec, features, modules);
        for (uint256 i = 0; i < features.length; i++) {
            TokenFeature(features[i]).initialize(token, msg.sender, params[i]);
        }
        ISystemFactory(rootFactory).announceToken(
            ISystemFactory.TokenAnnouncement({
                sender: msg.sender,
                token: token,
                tokenType: spec.tokenType,
                name: spec.name,
                symbol: spec.symbol,
                decimals: spec.decimals,
                compliance: spec.compliance,
                featureIds: ids,
                features: features,
                featureParams: params
            })
        );
    }

    function _cloneFeatures(FeatureConfig[] memory configs)
        private
        returns (string[] memory ids, address[] memory features, bytes[] memory params)
    {
        uint256 count = configs.length;
        ids = new string[](count);
        features = new address[](count);
        params = new bytes[](count);
        address[] memory implementations = new address[](count);
        for (uint256 i = 0; i < count; i++) {
            ids[i] = configs[i].featureId;
            params[i] = configs[i].params;
            implementations[i] = featureImplementation[ids[i]];
            if (implementations[i] == address(0)) revert FeatureRules.UnknownFeature(ids[i]);
        }
        FeatureRules.check(ids, implementations);
        for (uint256 i = 0; i < count; i++) {
            features[i] = Clones.clone(implementations[i]);
        }
    }

    function _initializeToken(
        address token,
        TokenSpec memory spec,
        address[] memory features,
        ModuleConfig[] memory modules
    ) private {
        address[] memory moduleAddresses = new address[](modules.length);
        bytes[] memory moduleParams = new bytes[](modules.length);
        for (uint256 i = 0; i < modules.length; i++) {
            moduleAddresses[i] = modules[i].module;
            moduleParams[i] = modules[i].params;
        }
        Token(token).initialize(
            Token.InitParams({
                name: spec.name,
                symbol: spec.symbol,
                decimals: spec.decimals,
                admin: msg.sender,
                system: system,
                compliance: spec.compliance,
                features: features,
                modules: moduleAddresses,
                moduleParams: moduleParams
            })
        );
    }
}
