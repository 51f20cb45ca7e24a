// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {ContractIdentity} from "./ContractIdentity.sol";
import {IIdentityAnnouncer} from "./IIdentityAnnouncer.sol";
import {Identity} from "./Identity.sol";
import {IdentityAccess} from "./IdentityAccess.sol";
import {IdentityRoles} from "./IdentityRoles.sol";

/// @notice A system's identity factory (a clone per system): one identity per wallet or contract, at a
/// CREATE2 address derived from the account, announced to the root when an announcer is set.
contract IdentityFactory is Initializable, IdentityAccess {
    address public identityImplementation;
    address public contractIdentityImplementation;
    /// The fixed-address contract re-emitting creations (the root); zero for none.
    address public announcer;

    mapping(address account => address identity) private _identities;

    event IdentityCreated(address indexed sender, address indexed wallet, address indexed identity);
    event ContractIdentityCreated(
        address indexed sender, address indexed contractAddress, address indexed identity, address manager
    );

    error IdentityAlreadyExists(address account, address identity);
    error NotAContract(address account);

    constructor() {
        _disableInitializers();
    }

    function initialize(address accessControl_, address identityImpl, address contractIdentityImpl, address announcer_)
        external
        initializer
    {
        _initAccess(accessControl_);
        if (identityImpl == address(0) || contractIdentityImpl == address(0)) revert ZeroAddress();
        identityImplementation = identityImpl;
        contractIdentityImplementation = contractIdentityImpl;
        announcer = announcer_;
    }

    /// Creates `wallet`'s identity with `wallet` and `extraManagementKeys` as MANAGEMENT keys.
    /// Callable by an identity manager, or by the wallet for itself.
    function createIdentity(address wallet, bytes32[] calldata extraManagementKeys) external returns (address identity) {
        identity = _cloneForWallet(wallet);
        Identity(identity).initialize(wallet, extraManagementKeys);
        _walletIdentityCreated(wallet, identity);
    }

    /// Creates `wallet`'s identity as a claim issuer in one transaction: `wallet` holds its MANAGEMENT and CLAIM
    /// keys, so the claims `wallet` signs are valid for it. Callable by an identity manager, or by the wallet itself.
    function createClaimIssuerIdentity(address wallet) external returns (address identity) {
        identity = _cloneForWallet(wallet);
        Identity(identity).initializeClaimIssuer(wallet, new bytes32[](0));
        _walletIdentityCreated(wallet, identity);
    }

    /// Creates the identity of `contractAddress`, managed by `manager`. Callable by an identity manager,
    /// or by the contract itself (e.g. a token during its initialisation).
    function createContractIdentity(address contractAddress, address manager) external returns (address identity) {
        if (contractAddress.code.length == 0) revert NotAContract(contractAddress);
        if (msg.sender != contractAddress) _checkRole(IdentityRoles.IDENTITY_MANAGER_ROLE, msg.sender);
        identity = _clone(contractIdentityImplementation, contractAddress);
        ContractIdentity(identity).initialize(contractAddress, manager);
        emit ContractIdentityCreated(msg.sender, contractAddress, identity, manager);
        _announce(contractAddress, identity, true);
    }

    function getIdentity(address account) external view returns (address) {
        return _identities[account];
    }

    /// The address `createIdentity` (isContract false) or `createContractIdentity` would use for `account`.
    function predictIdentityAddress(address account, bool isContract) external view returns (address) {
        address impl = isContract ? contractIdentityImplementation : identityImplementation;
        return Clones.predictDeterministicAddress(impl, _salt(account));
    }

    function _cloneForWallet(address wallet) private returns (address identity) {
        if (wallet == address(0)) revert ZeroAddress();
        if (msg.sender != wallet) _checkRole(IdentityRoles.IDENTITY_MANAGER_ROLE, msg.sender);
        identity = _clone(identityImplementation, wallet);
    }

    function _walletIdentityCreated(address wallet, address identity) private {
        emit IdentityCreated(msg.sender, wallet, identity);
        _announce(wallet, identity, false);
    }

    function _clone(address impl, address account) private returns (address identity) {
        address existing = _identities[account];
        if (existing != address(0)) revert IdentityAlreadyExists(account, existing);
        identity = Clones.cloneDeterministic(impl, _salt(account));
        _identities[account] = identity;
    }

    function _announce(address account, address identity, bool isContract) private {
        if (announcer != address(0)) {
            IIdentityAnnouncer(announcer).announceIdentity(msg.sender, account, identity, isContract);
        }
    }

    function _salt(address account) private pure returns (bytes32) {
        return bytes32(uint256(uint160(account)));
    }
}
