// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A fixed-address contract (the root) that re-emits every identity a per-system factory creates,
/// so an indexer watching only the root discovers identities.
interface IIdentityAnnouncer {
    /// `account` is the wallet (isContract false) or the contract (isContract true) the identity belongs to.
    function announceIdentity(address sender, address account, address identity, bool isContract) external;
}
