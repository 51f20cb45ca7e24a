// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {ClaimHolder} from "./ClaimHolder.sol";

/// @notice The identity of a contract (e.g. a token): ERC-735 claims, managed by an address the contract
/// designates. The contract itself, or the current manager, may hand management to another address.
contract ContractIdentity is Initializable, ClaimHolder {
    /// The contract this identity belongs to.
    address public subject;
    address public manager;

    event ManagerChanged(address indexed sender, address indexed previousManager, address indexed newManager);

    error NotIdentityManager(address account);
    error ZeroManager();

    constructor() {
        _disableInitializers();
    }

    function initialize(address subject_, address manager_) external initializer {
        if (manager_ == address(0)) revert ZeroManager();
        subject = subject_;
        manager = manager_;
        emit ManagerChanged(msg.sender, address(0), manager_);
    }

    function setManager(address newManager) external {
        _requireManager();
        if (newManager == address(0)) revert ZeroManager();
        emit ManagerChanged(msg.sender, manager, newManager);
        manager = newManager;
    }

    function _authorizeClaimChange() internal view override {
        _requireManager();
    }

    function _requireManager() private view {
        if (msg.sender != manager && msg.sender != subject) revert NotIdentityManager(msg.sender);
    }
}
