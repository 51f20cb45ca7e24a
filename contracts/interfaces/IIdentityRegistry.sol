// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Who is registered on a system: wallet → identity contract (ERC-734/735) and country
/// (ISO 3166-1 numeric). Compliance modules read it.
interface IIdentityRegistry {
    function contains(address wallet) external view returns (bool);
    function identity(address wallet) external view returns (address);
    function investorCountry(address wallet) external view returns (uint16);
    /// Registered, and holding a valid claim from a trusted issuer for every topic in `requiredTopics`.
    function isVerified(address wallet, uint256[] calldata requiredTopics) external view returns (bool);
}
