// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {ClaimHolder} from "./ClaimHolder.sol";
import {IClaimIssuer} from "./IClaimIssuer.sol";
import {IERC734} from "./IERC734.sol";
import {IERC735} from "./IERC735.sol";

/// @notice A wallet's identity (cloned per wallet): ERC-734 keys, ERC-735 claims, and claim issuing
/// (any identity can act as a claim issuer through its CLAIM keys).
contract Identity is Initializable, ClaimHolder, IERC734, IClaimIssuer {
    uint256 public constant MANAGEMENT = 1;
    uint256 public constant ACTION = 2;
    uint256 public constant CLAIM = 3;
    uint256 public constant ECDSA_KEY = 1;

    struct Key {
        uint256[] purposes;
        uint256 keyType;
    }

    mapping(bytes32 key => Key) private _keys;
    mapping(uint256 purpose => bytes32[]) private _keysByPurpose;
    mapping(bytes32 signatureHash => bool) private _revoked;
    uint256 private _executionNonce;

    error KeyPurposeRequired(address account, uint256 purpose);
    error KeyAlreadyHasPurpose(bytes32 key, uint256 purpose);
    error KeyDoesNotHavePurpose(bytes32 key, uint256 purpose);
    error InvalidKeyPurpose(uint256 purpose);
    error LastManagementKey(bytes32 key);
    error ClaimAlreadyRevoked(bytes signature);
    error ClaimNotIssuedBy(address issuer, address subject, bytes32 claimId);

    constructor() {
        _disableInitializers();
    }

    /// `wallet` gets a MANAGEMENT key; `extraManagementKeys` (keccak256(abi.encode(address))) too.
    function initialize(address wallet, bytes32[] calldata extraManagementKeys) external initializer {
        _addManagementKeys(wallet, extraManagementKeys);
    }

    /// Like initialize, and `wallet` also holds a CLAIM key: a claim issuer whose wallet signs the claims it vouches for.
    function initializeClaimIssuer(address wallet, bytes32[] calldata extraManagementKeys) external initializer {
        _addManagementKeys(wallet, extraManagementKeys);
        _addKey(addressKey(wallet), CLAIM, ECDSA_KEY);
    }

    modifier onlyManagement() {
        _requirePurpose(MANAGEMENT, MANAGEMENT);
        _;
    }

    /// The ERC-734 key of an ECDSA address.
    function addressKey(address account) public pure returns (bytes32) {
        return keccak256(abi.encode(account));
    }

    // ---- ERC-734 keys ----

    function addKey(bytes32 key, uint256 purpose, uint256 keyType) external onlyManagement returns (bool) {
        _addKey(key, purpose, keyType);
        return true;
    }

    function removeKey(bytes32 key, uint256 purpose) external onlyManagement returns (bool) {
        if (!keyHasPurpose(key, purpose)) revert KeyDoesNotHavePurpose(key, purpose);
        bytes32[] storage byPurpose = _keysByPurpose[purpose];
        if (purpose == MANAGEMENT && byPurpose.length == 1) revert LastManagementKey(key);
        _removeValue(_keys[key].purposes, purpose);
        for (uint256 i = 0; i < byPurpose.length; i++) {
            if (byPurpose[i] == key) {
                byPurpose[i] = byPurpose[byPurpose.length - 1];
                byPurpose.pop();
                break;
            }
        }
        uint256 keyType = _keys[key].keyType;
        if (_keys[key].purposes.length == 0) delete _keys[key];
        emit KeyRemoved(key, purpose, keyType);
        return true;
    }

    function getKey(bytes32 key) external view returns (uint256[] memory purposes, uint256 keyType, bytes32 keyId) {
        Key storage k = _keys[key];
        return (k.purposes, k.keyType, k.purposes.length == 0 ? bytes32(0) : key);
    }

    function getKeyPurposes(bytes32 key) external view returns (uint256[] memory) {
        return _keys[key].purposes;
    }

    function getKeysByPurpose(uint256 purpose) external view returns (bytes32[] memory) {
        return _keysByPurpose[purpose];
    }

    /// Strict: a MANAGEMENT key does not imply the other purposes.
    function keyHasPurpose(bytes32 key, uint256 purpose) public view returns (bool) {
        uint256[] storage purposes = _keys[key].purposes;
        for (uint256 i = 0; i < purposes.length; i++) {
            if (purposes[i] == purpose) return true;
        }
        return false;
    }

    /// Runs a call as this identity at once (no approval queue): MANAGEMENT keys call anything,
    /// ACTION keys call other contracts. A failed call reverts with the callee's error (rather than
    /// ERC-734's ExecutionFailed event, which also breaks gas estimation of the outer call).
    function execute(address to, uint256 value, bytes calldata data) external payable returns (uint256 executionId) {
        if (to == address(this)) _requirePurpose(MANAGEMENT, MANAGEMENT);
        else _requirePurpose(ACTION, MANAGEMENT);
        executionId = _executionNonce++;
        emit ExecutionRequested(executionId, to, value, data);
        Address.functionCallWithValue(to, data, value);
        emit Executed(executionId, to, value, data);
    }

    // ---- Claim issuing ----

    function isClaimValid(address subject, uint256 topic, bytes calldata signature, bytes calldata data)
        public
        view
        returns (bool)
    {
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(keccak256(abi.encode(subject, topic, data)));
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(digest, signature);
        if (err != ECDSA.RecoverError.NoError) return false;
        return keyHasPurpose(addressKey(signer), CLAIM) && !_revoked[keccak256(signature)];
    }

    function isClaimRevoked(bytes calldata signature) external view returns (bool) {
        return _revoked[keccak256(signature)];
    }

    function revokeClaim(bytes32 claimId, address subject) external returns (bool) {
        _requirePurpose(CLAIM, MANAGEMENT);
        (uint256 topic,, address issuer, bytes memory signature,,) = IERC735(subject).getClaim(claimId);
        if (issuer != address(this)) revert ClaimNotIssuedBy(address(this), subject, claimId);
        _revoke(signature, subject, claimId, topic);
        return true;
    }

    function revokeClaimBySignature(bytes calldata signature) external {
        _requirePurpose(CLAIM, MANAGEMENT);
        _revoke(signature, address(0), bytes32(0), 0);
    }

    // ---- internals ----

    function _authorizeClaimChange() internal view override {
        _requirePurpose(CLAIM, MANAGEMENT);
    }

    /// Passes for the identity itself (through execute) or a key holding either purpose; the error names `purpose`.
    function _requirePurpose(uint256 purpose, uint256 alternative) private view {
        if (msg.sender == address(this)) return;
        bytes32 key = addressKey(msg.sender);
        if (!keyHasPurpose(key, purpose) && !keyHasPurpose(key, alternative)) {
            revert KeyPurposeRequired(msg.sender, purpose);
        }
    }

    function _addManagementKeys(address wallet, bytes32[] calldata extraManagementKeys) private {
        bytes32 walletKey = addressKey(wallet);
        _addKey(walletKey, MANAGEMENT, ECDSA_KEY);
        for (uint256 i = 0; i < extraManagementKeys.length; i++) {
            if (extraManagementKeys[i] != walletKey) _addKey(extraManagementKeys[i], MANAGEMENT, ECDSA_KEY);
        }
    }

    function _addKey(bytes32 key, uint256 purpose, uint256 keyType) private {
        if (purpose == 0) revert InvalidKeyPurpose(purpose);
        if (keyHasPurpose(key, purpose)) revert KeyAlreadyHasPurpose(key, purpose);
        Key storage k = _keys[key];
        k.purposes.push(purpose);
        k.keyType = keyType;
        _keysByPurpose[purpose].push(key);
        emit KeyAdded(key, purpose, keyType);
    }

    function _revoke(bytes memory signature, address subject, bytes32 claimId, uint256 topic) private {
        bytes32 signatureHash = keccak256(signature);
        if (_revoked[signatureHash]) revert ClaimAlreadyRevoked(signature);
        _revoked[signatureHash] = true;
        emit ClaimRevoked(msg.sender, subject, claimId, topic, signature);
    }

    function _removeValue(uint256[] storage values, uint256 value) private {
        for (uint256 i = 0; i < values.length; i++) {
            if (values[i] == value) {
                values[i] = values[values.length - 1];
                values.pop();
                return;
            }
        }
    }
}
