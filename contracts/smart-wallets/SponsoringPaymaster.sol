// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {BasePaymaster} from "@account-abstraction/contracts/core/BasePaymaster.sol";
import {SIG_VALIDATION_SUCCESS} from "@account-abstraction/contracts/core/Helpers.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";

/// @notice The platform's paymaster (EntryPoint v0.8): pays the gas of user operations whose sender its owner has
/// allowed (setSponsored), from its deposit at the EntryPoint. Deposit and stake management come from
/// BasePaymaster. No postOp: each sponsored operation is announced by the EntryPoint's UserOperationEvent, which
/// names this paymaster and the actualGasCost.
contract SponsoringPaymaster is BasePaymaster {
    mapping(address account => bool) public isSponsored;

    event SponsorshipChanged(address indexed account, bool sponsored);

    error AccountNotSponsored(address account);

    constructor(IEntryPoint anEntryPoint, address initialOwner) BasePaymaster(anEntryPoint) {
        if (initialOwner == address(0)) revert OwnableInvalidOwner(address(0));
        _transferOwnership(initialOwner);
    }

    /// @notice Works for counterfactual accounts too (sponsor the address before its first operation deploys it).
    function setSponsored(address account, bool sponsored) external onlyOwner {
        isSponsored[account] = sponsored;
        emit SponsorshipChanged(account, sponsored);
    }

    /// @dev Reads only a slot keyed by the sender, which ERC-7562 allows an unstaked paymaster.
    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        if (!isSponsored[userOp.sender]) revert AccountNotSponsored(userOp.sender);
        return ("", SIG_VALIDATION_SUCCESS);
    }
}
