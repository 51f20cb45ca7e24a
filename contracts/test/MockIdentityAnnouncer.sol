// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IIdentityAnnouncer} from "../identity/IIdentityAnnouncer.sol";

/// @notice Test stand-in for the root: re-emits what an identity factory announces.
contract MockIdentityAnnouncer is IIdentityAnnouncer {
    event IdentityAnnounced(
        address indexed factory, address indexed sender, address indexed account, address identity, bool isContract
    );

    function announceIdentity(address sender, address account, address identity, bool isContract) external {
        emit IdentityAnnounced(msg.sender, sender, account, identity, isContract);
    }
}
