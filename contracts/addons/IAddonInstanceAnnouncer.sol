// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The root re-emits every instance a system's addon factory creates (AddonInstanceCreated), so an indexer
/// watching only the root discovers them; it checks the caller is an addon of one of its systems.
interface IAddonInstanceAnnouncer {
    function announceAddonInstance(address instance, bytes calldata params) external;
}
