// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The root of a deployment: one per chain at a deterministic address.
/// Every contract the platform creates, at any depth, is announced by an event of this contract,
/// so an indexer that watches only the root discovers everything (one factory level).
interface ISystemFactory {
    /// The implementations every system is cloned from (one deployment per chain and build).
    struct Implementations {
        address system;
        address token;
        address identity;
        address contractIdentity;
        address forwarder;
        /// The implementation each of a system's contracts is cloned from: one field per contract, listed once.
        SystemContracts systemContracts;
    }

    /// What each system offers its tokens: feature implementations (shared, cloned per token) and
    /// compliance module implementations (cloned once per system).
    struct Catalogue {
        string[] featureIds;
        address[] features;
        address[] complianceModules;
        /// Addon types every system registers and creates (factory kind): type id string, the factory's and the
        /// instances' implementations (contracts/addons/).
        string[] addonTypes;
        address[] addonFactories;
        address[] addonInstances;
    }

    /// The contracts a new system is made of (all clones owned by its access manager).
    struct SystemContracts {
        address accessManager;
        address tokenFactory;
        address compliance;
        address identityFactory;
        address identityRegistry;
        address identityRegistryStorage;
        address trustedIssuersRegistry;
        address trustedIssuersMetaRegistry;
        address topicSchemeRegistry;
        address directory;
        address tokenFactoryRegistry;
        address complianceModuleRegistry;
        address addonRegistry;
        address externalTokenRegistry;
        address exchangeRateFeedRegistry;
    }

    /// What a token factory reports about a token it created (features in attachment order).
    struct TokenAnnouncement {
        address sender;
        address token;
        string tokenType;
        string name;
        string symbol;
        uint8 decimals;
        address compliance;
        string[] featureIds;
        address[] features;
        bytes[] featureParams;
    }

    event SystemCreated(
        address indexed sender,
        address indexed system,
        address indexed owner,
        address tokenFactory,
        address accessManager,
        address compliance,
        address identityRegistry,
        address identityFactory,
        address directory
    );
    /// Every contract of a new system, right after its SystemCreated.
    event SystemContractsCreated(address indexed system, SystemContracts contracts);
    /// `compliance` is address(0) when the token has none; `featureIds[i]` is the id of `features[i]`.
    event TokenCreated(
        address indexed sender,
        address indexed token,
        address indexed system,
        address tokenFactory,
        string tokenType,
        string name,
        string symbol,
        uint8 decimals,
        address compliance,
        string[] featureIds,
        address[] features
    );
    /// One per feature instance, right after its TokenCreated: `params` is the ABI encoding at creation.
    event FeatureAttached(
        address indexed sender, address indexed token, address indexed feature, string featureId, bytes params
    );
    /// An identity a system's identity factory created, for a wallet or (isContract) a contract.
    event IdentityCreated(
        address indexed sender, address indexed system, address indexed account, address identity, bool isContract
    );

    /// A feed a system's exchange rate registry created for the pair (rates in `decimals` decimals).
    event ExchangeRateFeedCreated(
        address indexed sender,
        address indexed system,
        address indexed feed,
        string baseCurrency,
        string quoteCurrency,
        uint8 decimals
    );

    /// An instance a system's addon (factory) created: `typeName` is the addon type id string ("xvp-settlement"),
    /// `params` the ABI encoding of the factory's own creation event's fields after the instance address.
    event AddonInstanceCreated(
        address indexed system, address indexed addon, address indexed instance, string typeName, bytes params
    );

    error UnknownTokenFactory(address caller);
    error UnknownAddon(address caller);
    error UnknownExchangeRateFeedRegistry(address caller);
    error UnknownIdentityFactory(address caller);
    error CatalogueLengthMismatch(uint256 featureIds, uint256 features);
    error AddonCatalogueLengthMismatch(uint256 addonTypes, uint256 addonFactories, uint256 addonInstances);

    function createSystem(address owner) external returns (address system);
    function announceToken(TokenAnnouncement calldata announcement) external;
    function implementations() external view returns (Implementations memory);
    function catalogue() external view returns (Catalogue memory);
}
