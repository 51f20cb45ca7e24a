// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice A weighted multisig signer set: signers with uint64 weights and a uint64 threshold that is a weight sum,
/// not a count. Signatures are 65-byte ECDSA signatures (r, s, v) over a hash, concatenated in strictly ascending
/// order of signer address (so a signer counts once). Changes go through `_requireForManagement` (the account
/// itself) and are announced by events an index can follow without calls.
abstract contract WeightedMultisig {
    /// @dev Also emitted once per initial signer, in the initial order.
    event SignerAdded(address indexed signer, uint64 weight);
    event SignerRemoved(address indexed signer);
    event WeightChanged(address indexed signer, uint64 oldWeight, uint64 newWeight);
    /// @dev Also emitted at initialisation, from 0.
    event ThresholdChanged(uint64 oldThreshold, uint64 newThreshold);

    error SignerInvalid(address signer);
    error SignerExists(address signer);
    error SignerUnknown(address signer);
    error WeightZero(address signer);
    error ThresholdZero();
    /// @dev The signers' weights together stay below the threshold: no set of signatures could ever validate.
    error ThresholdUnreachable(uint64 threshold, uint256 totalWeight);
    error SignersWeightsMismatch(uint256 signers, uint256 weights);

    uint256 private constant SIGNATURE_LENGTH = 65;

    address[] private _signers;
    mapping(address signer => uint64) private _weights;
    /// @dev Index in `_signers` plus one; 0 for a non-signer.
    mapping(address signer => uint256) private _positions;
    uint256 private _totalWeight;
    uint64 private _threshold;

    /// @dev Reverts unless the caller may change the signer set.
    function _requireForManagement() internal view virtual;

    function addSigner(address signer, uint64 weight) external {
        _requireForManagement();
        _addSigner(signer, weight);
    }

    /// @notice Refuses to leave a threshold the remaining weights cannot reach.
    function removeSigner(address signer) external {
        _requireForManagement();
        uint256 position = _positions[signer];
        if (position == 0) revert SignerUnknown(signer);
        address last = _signers[_signers.length - 1];
        _signers[position - 1] = last;
        _positions[last] = position;
        _signers.pop();
        _totalWeight -= _weights[signer];
        delete _positions[signer];
        delete _weights[signer];
        _requireReachable(_threshold);
        emit SignerRemoved(signer);
    }

    /// @notice Refuses a weight that leaves the threshold unreachable; use removeSigner rather than weight 0.
    function setWeight(address signer, uint64 weight) external {
        _requireForManagement();
        uint64 old = _weights[signer];
        if (old == 0) revert SignerUnknown(signer);
        if (weight == 0) revert WeightZero(signer);
        _weights[signer] = weight;
        _totalWeight = _totalWeight - old + weight;
        _requireReachable(_threshold);
        emit WeightChanged(signer, old, weight);
    }

    /// @notice Reverts ThresholdZero or ThresholdUnreachable, so an impossible threshold fails the operation.
    function setThreshold(uint64 newThreshold) external {
        _requireForManagement();
        _setThreshold(newThreshold);
    }

    function threshold() public view returns (uint64) {
        return _threshold;
    }

    function totalWeight() external view returns (uint256) {
        return _totalWeight;
    }

    /// @return 0 for a non-signer.
    function weightOf(address signer) external view returns (uint64) {
        return _weights[signer];
    }

    function signers() external view returns (address[] memory accounts, uint64[] memory weights) {
        accounts = _signers;
        weights = new uint64[](accounts.length);
        for (uint256 i = 0; i < accounts.length; i++) {
            weights[i] = _weights[accounts[i]];
        }
    }

    /// @notice The weight `signatures` reach over `hash`: the sum of their signers' weights, or 0 when the packing
    /// is malformed (length not a multiple of 65, a signature that does not recover, signers not in strictly
    /// ascending order, a non-signer). Never reverts. Valid for a user operation when >= threshold().
    function signatureWeight(bytes32 hash, bytes calldata signatures) public view returns (uint256 weight) {
        uint256 count = signatures.length / SIGNATURE_LENGTH;
        if (count == 0 || signatures.length % SIGNATURE_LENGTH != 0) return 0;
        bool valid = true;
        address previous = address(0);
        // No early exit: a failing signature costs about what a valid one does, so gas estimation with placeholder
        // signatures stays close to the real cost.
        for (uint256 i = 0; i < count; i++) {
            uint256 offset = i * SIGNATURE_LENGTH;
            (address signer, ECDSA.RecoverError error,) = ECDSA.tryRecover(
                hash,
                uint8(signatures[offset + 64]),
                bytes32(signatures[offset:offset + 32]),
                bytes32(signatures[offset + 32:offset + 64])
            );
            uint64 signerWeight = _weights[signer];
            if (error != ECDSA.RecoverError.NoError || signer <= previous || signerWeight == 0) valid = false;
            weight += signerWeight;
            previous = signer;
        }
        return valid ? weight : 0;
    }

    function _initializeSigners(address[] calldata accounts, uint64[] calldata weights, uint64 initialThreshold)
        internal
    {
        if (accounts.length != weights.length) revert SignersWeightsMismatch(accounts.length, weights.length);
        for (uint256 i = 0; i < accounts.length; i++) {
            _addSigner(accounts[i], weights[i]);
        }
        _setThreshold(initialThreshold);
    }

    function _addSigner(address signer, uint64 weight) private {
        if (signer == address(0)) revert SignerInvalid(signer);
        if (_positions[signer] != 0) revert SignerExists(signer);
        if (weight == 0) revert WeightZero(signer);
        _signers.push(signer);
        _positions[signer] = _signers.length;
        _weights[signer] = weight;
        _totalWeight += weight;
        emit SignerAdded(signer, weight);
    }

    function _setThreshold(uint64 newThreshold) private {
        if (newThreshold == 0) revert ThresholdZero();
        _requireReachable(newThreshold);
        emit ThresholdChanged(_threshold, newThreshold);
        _threshold = newThreshold;
    }

    function _requireReachable(uint64 value) private view {
        if (_totalWeight < value) revert ThresholdUnreachable(value, _totalWeight);
    }
}
