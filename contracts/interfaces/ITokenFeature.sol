// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A feature attached to a token at creation (one instance per token and feature, a clone of
/// the feature type's implementation). The token calls the hooks on every balance change, after the
/// balances moved; a hook may revert to refuse the change.
interface ITokenFeature {
    /// The spec's feature id, e.g. "historical-balances", "transaction-fee".
    function featureId() external view returns (string memory);
    function token() external view returns (address);
    /// ABI-encoded current parameter values (shape documented per feature).
    function parameters() external view returns (bytes memory);

    /// from == 0 is a mint, to == 0 a burn. `sender` is the account that asked the token.
    function onUpdate(address sender, address from, address to, uint256 amount) external;
}
