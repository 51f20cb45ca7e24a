// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A claim issuer: an identity whose CLAIM keys sign claims. A claim is valid when a CLAIM key of
/// the issuer signed keccak256(abi.encode(subject, topic, data)) as an Ethereum signed message, and the
/// issuer has not revoked that signature.
interface IClaimIssuer {
    /// `subject`, `claimId` and `topic` are zero when the revocation named only the signature.
    event ClaimRevoked(
        address indexed sender, address indexed subject, bytes32 indexed claimId, uint256 topic, bytes signature
    );

    function isClaimValid(address subject, uint256 topic, bytes calldata signature, bytes calldata data)
        external
        view
        returns (bool);
    function isClaimRevoked(bytes calldata signature) external view returns (bool);
    /// Revokes the claim `claimId` this issuer put on `subject` (read from the subject identity).
    function revokeClaim(bytes32 claimId, address subject) external returns (bool);
    function revokeClaimBySignature(bytes calldata signature) external;
}
