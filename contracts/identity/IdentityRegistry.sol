// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IIdentityRegistry} from "../interfaces/IIdentityRegistry.sol";
import {IClaimIssuer} from "./IClaimIssuer.sol";
import {IERC735} from "./IERC735.sol";
import {IdentityAccess} from "./IdentityAccess.sol";
import {IdentityRoles} from "./IdentityRoles.sol";
import {IIdentityRegistryStorage, IIdentityStorageErrors} from "./IIdentityRegistryStorage.sol";
import {ITrustedIssuersRegistry} from "./ITrustedIssuersRegistry.sol";
import {TrustedIssuersMetaRegistry} from "./TrustedIssuersMetaRegistry.sol";

/// @notice What the registry needs of the identity factory.
interface IWalletIdentityFactory {
    function getIdentity(address account) external view returns (address);
    function createIdentity(address wallet, bytes32[] calldata extraManagementKeys) external returns (address);
}

/// @notice A system's identity registry: registers wallets (identity + country) in the bound storage and
/// answers whether a wallet holds a valid claim from a trusted issuer for each required topic.
contract IdentityRegistry is Initializable, IdentityAccess, IIdentityRegistry, IIdentityStorageErrors {
    address public identityStorage;
    /// System-wide trusted issuers; used when no meta registry is set.
    address public trustedIssuersRegistry;
    /// When set, resolves trusted issuers per subject (system-wide plus the subject's own).
    address public trustedIssuersMetaRegistry;
    /// The system's identity factory, for registrations that create the wallet's identity first.
    address public identityFactory;

    event IdentityRegistered(address indexed sender, address indexed wallet, address indexed identity, uint16 country);
    event IdentityRemoved(address indexed sender, address indexed wallet, address indexed identity);
    event CountryUpdated(address indexed sender, address indexed wallet, uint16 oldCountry, uint16 newCountry);
    event IdentityUpdated(
        address indexed sender, address indexed wallet, address indexed newIdentity, address oldIdentity
    );
    event IdentityRegistryStorageSet(address indexed sender, address indexed identityStorage);
    event TrustedIssuersRegistrySet(address indexed sender, address indexed registry);
    event TrustedIssuersMetaRegistrySet(address indexed sender, address indexed registry);
    event IdentityFactorySet(address indexed sender, address indexed factory);

    error ArrayLengthMismatch(uint256 wallets, uint256 identities, uint256 countries);

    constructor() {
        _disableInitializers();
    }

    /// `metaRegistry` may be zero. The storage must bind this registry (IdentityRegistryStorage.initialize
    /// or bindIdentityRegistry) before registrations succeed.
    function initialize(address accessControl_, address storage_, address issuersRegistry, address metaRegistry)
        external
        initializer
    {
        _initAccess(accessControl_);
        _setStorage(storage_);
        _setIssuersRegistry(issuersRegistry);
        if (metaRegistry != address(0)) _setMetaRegistry(metaRegistry);
    }

    // ---- wiring ----

    function setIdentityRegistryStorage(address storage_) external onlyRole(IdentityRoles.SYSTEM_MANAGER_ROLE) {
        _setStorage(storage_);
    }

    function setTrustedIssuersRegistry(address registry) external onlyRole(IdentityRoles.SYSTEM_MANAGER_ROLE) {
        _setIssuersRegistry(registry);
    }

    /// Zero stops consulting a meta registry.
    function setTrustedIssuersMetaRegistry(address registry) external onlyRole(IdentityRoles.SYSTEM_MANAGER_ROLE) {
        _setMetaRegistry(registry);
    }

    /// The registry must hold IDENTITY_MANAGER_ROLE to create identities through `factory`.
    function setIdentityFactory(address factory) external onlyRole(IdentityRoles.SYSTEM_MANAGER_ROLE) {
        identityFactory = factory;
        emit IdentityFactorySet(msg.sender, factory);
    }

    // ---- registrations ----

    /// Registers `wallet` with its identity from the system's factory, creating the identity when it has none,
    /// so one call (one transaction) onboards a wallet. A created identity gets the caller (the identity
    /// manager) as a second management key, so the platform can keep the wallet's claims (custodial onboarding).
    function registerWalletIdentity(address wallet, uint16 country)
        external
        onlyRole(IdentityRoles.IDENTITY_MANAGER_ROLE)
        returns (address identity_)
    {
        IWalletIdentityFactory factory = IWalletIdentityFactory(identityFactory);
        if (address(factory) == address(0)) revert ZeroAddress();
        identity_ = factory.getIdentity(wallet);
        if (identity_ == address(0)) {
            bytes32[] memory managers = new bytes32[](wallet == msg.sender ? 0 : 1);
            if (managers.length == 1) managers[0] = keccak256(abi.encode(msg.sender));
            identity_ = factory.createIdentity(wallet, managers);
        }
        _register(wallet, identity_, country);
    }

    function registerIdentity(address wallet, address identity_, uint16 country)
        external
        onlyRole(IdentityRoles.IDENTITY_MANAGER_ROLE)
    {
        _register(wallet, identity_, country);
    }

    function batchRegisterIdentity(address[] calldata wallets, address[] calldata identities, uint16[] calldata countries)
        external
        onlyRole(IdentityRoles.IDENTITY_MANAGER_ROLE)
    {
        if (wallets.length != identities.length || wallets.length != countries.length) {
            revert ArrayLengthMismatch(wallets.length, identities.length, countries.length);
        }
        for (uint256 i = 0; i < wallets.length; i++) {
            _register(wallets[i], identities[i], countries[i]);
        }
    }

    function updateCountry(address wallet, uint16 country) external onlyRole(IdentityRoles.IDENTITY_MANAGER_ROLE) {
        IIdentityRegistryStorage store = IIdentityRegistryStorage(identityStorage);
        uint16 old = store.storedInvestorCountry(wallet);
        store.modifyStoredInvestorCountry(wallet, country);
        emit CountryUpdated(msg.sender, wallet, old, country);
    }

    function updateIdentity(address wallet, address identity_) external onlyRole(IdentityRoles.IDENTITY_MANAGER_ROLE) {
        IIdentityRegistryStorage store = IIdentityRegistryStorage(identityStorage);
        address old = store.storedIdentity(wallet);
        store.modifyStoredIdentity(wallet, identity_);
        emit IdentityUpdated(msg.sender, wallet, identity_, old);
    }

    function deleteIdentity(address wallet) external onlyRole(IdentityRoles.IDENTITY_MANAGER_ROLE) {
        IIdentityRegistryStorage store = IIdentityRegistryStorage(identityStorage);
        address old = store.storedIdentity(wallet);
        store.removeIdentityFromStorage(wallet);
        emit IdentityRemoved(msg.sender, wallet, old);
    }

    // ---- reads (IIdentityRegistry) ----

    function contains(address wallet) external view returns (bool) {
        return IIdentityRegistryStorage(identityStorage).storedIdentity(wallet) != address(0);
    }

    function identity(address wallet) external view returns (address) {
        return IIdentityRegistryStorage(identityStorage).storedIdentity(wallet);
    }

    function investorCountry(address wallet) external view returns (uint16) {
        return IIdentityRegistryStorage(identityStorage).storedInvestorCountry(wallet);
    }

    /// System-wide trusted issuers only (subject zero).
    function isVerified(address wallet, uint256[] calldata requiredTopics) external view returns (bool) {
        return isVerifiedFor(address(0), wallet, requiredTopics);
    }

    /// Like isVerified, with the trusted issuers the meta registry resolves for `subject` (e.g. a token).
    function isVerifiedFor(address subject, address wallet, uint256[] calldata requiredTopics)
        public
        view
        returns (bool)
    {
        address id = IIdentityRegistryStorage(identityStorage).storedIdentity(wallet);
        if (id == address(0)) return false;
        for (uint256 i = 0; i < requiredTopics.length; i++) {
            if (!_hasValidClaim(subject, id, requiredTopics[i])) return false;
        }
        return true;
    }

    // ---- internals ----

    function _register(address wallet, address identity_, uint16 country) private {
        IIdentityRegistryStorage(identityStorage).addIdentityToStorage(wallet, identity_, country);
        emit IdentityRegistered(msg.sender, wallet, identity_, country);
    }

    function _hasValidClaim(address subject, address id, uint256 topic) private view returns (bool) {
        address[] memory issuers = trustedIssuersMetaRegistry != address(0)
            ? TrustedIssuersMetaRegistry(trustedIssuersMetaRegistry).getTrustedIssuersForClaimTopic(subject, topic)
            : ITrustedIssuersRegistry(trustedIssuersRegistry).getTrustedIssuersForClaimTopic(topic);
        for (uint256 i = 0; i < issuers.length; i++) {
            if (_issuerClaimValid(id, issuers[i], topic)) return true;
        }
        return false;
    }

    /// Broken identities or issuers count as "no valid claim" instead of reverting the check.
    function _issuerClaimValid(address id, address issuer, uint256 topic) private view returns (bool) {
        if (issuer.code.length == 0 || id.code.length == 0) return false;
        bytes32 claimId = keccak256(abi.encode(issuer, topic));
        try IERC735(id).getClaim(claimId) returns (
            uint256 claimTopic, uint256, address claimIssuer, bytes memory signature, bytes memory data, string memory
        ) {
            if (claimIssuer != issuer || claimTopic != topic) return false;
            try IClaimIssuer(issuer).isClaimValid(id, topic, signature, data) returns (bool valid) {
                return valid;
            } catch {
                return false;
            }
        } catch {
            return false;
        }
    }

    function _setStorage(address storage_) private {
        if (storage_ == address(0)) revert ZeroAddress();
        identityStorage = storage_;
        emit IdentityRegistryStorageSet(msg.sender, storage_);
    }

    function _setIssuersRegistry(address registry) private {
        if (registry == address(0)) revert ZeroAddress();
        trustedIssuersRegistry = registry;
        emit TrustedIssuersRegistrySet(msg.sender, registry);
    }

    function _setMetaRegistry(address registry) private {
        trustedIssuersMetaRegistry = registry;
        emit TrustedIssuersMetaRegistrySet(msg.sender, registry);
    }
}
