// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Errors of the identity storage, apart so a registry can inherit them: the storage's reverts
/// bubble up through the registry, whose ABI must name them for the API to decode.
interface IIdentityStorageErrors {
    error WalletAlreadyRegistered(address wallet);
    error WalletNotRegistered(address wallet);
    error IdentityNotAContract(address identity);
    error InvalidCountryCode(uint16 country);
    error CallerNotBoundRegistry(address caller);
}

/// @notice Wallet → identity and country, written only by bound identity registries.
interface IIdentityRegistryStorage is IIdentityStorageErrors {
    function addIdentityToStorage(address wallet, address identity, uint16 country) external;
    function removeIdentityFromStorage(address wallet) external;
    function modifyStoredIdentity(address wallet, address identity) external;
    function modifyStoredInvestorCountry(address wallet, uint16 country) external;
    function storedIdentity(address wallet) external view returns (address);
    function storedInvestorCountry(address wallet) external view returns (uint16);
}
