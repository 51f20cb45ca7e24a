// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {BasePaymaster} from "@account-abstraction/contracts/core/BasePaymaster.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";

/// @notice Test only: sponsors every user operation without checks, so tests can drive sponsored
/// ERC-4337 operations through a real EntryPoint (the index reads the paymaster from its events).
contract TestPaymaster is BasePaymaster {
    constructor(IEntryPoint entryPoint_) BasePaymaster(entryPoint_) {}

    function _validatePaymasterUserOp(PackedUserOperation calldata, bytes32, uint256)
        internal
        pure
        override
        returns (bytes memory context, uint256 validationData)
    {
        return ("", 0);
    }
}
