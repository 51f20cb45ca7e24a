// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IClaimIssuer} from "./IClaimIssuer.sol";
import {IERC735} from "./IERC735.sol";

/// @notice ERC-735 claim storage shared by wallet and contract identities; the subclass decides who may
/// change claims. A claim from another issuer is accepted only when that issuer says it is valid.
abstract contract ClaimHolder is IERC735 {
    struct Claim {
        uint256 topic;
        uint256 scheme;
        address issuer;
        bytes signature;
        bytes data;
        string uri;
    }

    mapping(bytes32 claimId => Claim) private _claims;
    mapping(uint256 topic => bytes32[]) private _claimIdsByTopic;

    error ClaimNotFound(bytes32 claimId);
    error InvalidClaim(address issuer, uint256 topic);

    /// Reverts unless msg.sender may add, change or remove claims.
    function _authorizeClaimChange() internal view virtual;

    function addClaim(
        uint256 topic,
        uint256 scheme,
        address issuer,
        bytes calldata signature,
        bytes calldata data,
        string calldata uri
    ) external returns (bytes32 claimId) {
        _authorizeClaimChange();
        if (issuer != address(this) && !_issuerVouches(issuer, topic, signature, data)) {
            revert InvalidClaim(issuer, topic);
        }
        claimId = keccak256(abi.encode(issuer, topic));
        Claim storage claim = _claims[claimId];
        bool changed = claim.issuer != address(0);
        claim.topic = topic;
        claim.scheme = scheme;
        claim.issuer = issuer;
        claim.signature = signature;
        claim.data = data;
        claim.uri = uri;
        if (changed) {
            emit ClaimChanged(claimId, topic, scheme, issuer, signature, data, uri);
        } else {
            _claimIdsByTopic[topic].push(claimId);
            emit ClaimAdded(claimId, topic, scheme, issuer, signature, data, uri);
        }
    }

    function removeClaim(bytes32 claimId) external returns (bool) {
        _authorizeClaimChange();
        Claim memory claim = _claims[claimId];
        if (claim.issuer == address(0)) revert ClaimNotFound(claimId);
        bytes32[] storage ids = _claimIdsByTopic[claim.topic];
        for (uint256 i = 0; i < ids.length; i++) {
            if (ids[i] == claimId) {
                ids[i] = ids[ids.length - 1];
                ids.pop();
                break;
            }
        }
        delete _claims[claimId];
        emit ClaimRemoved(claimId, claim.topic, claim.scheme, claim.issuer, claim.signature, claim.data, claim.uri);
        return true;
    }

    function getClaim(bytes32 claimId)
        external
        view
        returns (
            uint256 topic,
            uint256 scheme,
            address issuer,
            bytes memory signature,
            bytes memory data,
            string memory uri
        )
    {
        Claim storage claim = _claims[claimId];
        return (claim.topic, claim.scheme, claim.issuer, claim.signature, claim.data, claim.uri);
    }

    function getClaimIdsByTopic(uint256 topic) external view returns (bytes32[] memory) {
        return _claimIdsByTopic[topic];
    }

    function _issuerVouches(address issuer, uint256 topic, bytes calldata signature, bytes calldata data)
        private
        view
        returns (bool)
    {
        // A call to an address without code would revert while decoding, outside the try.
        if (issuer.code.length == 0) return false;
        try IClaimIssuer(issuer).isClaimValid(address(this), topic, signature, data) returns (bool valid) {
            return valid;
        } catch {
            return false;
        }
    }
}
