// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {WeightedMultisigAccount} from "./WeightedMultisigAccount.sol";

/// @notice Deploys WeightedMultisigAccount clones with CREATE2. The address depends on the whole initial
/// configuration (signers in the given order, weights, threshold) and the salt, so whoever deploys it (a direct
/// call, or the EntryPoint's SenderCreator through a user operation's factory/factoryData) gets the same account.
contract WeightedMultisigAccountFactory {
    WeightedMultisigAccount public immutable accountImplementation;
    IEntryPoint public immutable entryPoint;

    event AccountCreated(
        address indexed account, address[] signers, uint64[] weights, uint64 threshold, uint256 salt
    );

    constructor(IEntryPoint anEntryPoint) {
        entryPoint = anEntryPoint;
        accountImplementation = new WeightedMultisigAccount(anEntryPoint);
    }

    /// @notice Idempotent: returns the existing account (without an event) when it is already deployed.
    function createAccount(address[] calldata signers, uint64[] calldata weights, uint64 threshold, uint256 salt)
        external
        returns (WeightedMultisigAccount account)
    {
        bytes32 cloneSalt = _cloneSalt(signers, weights, threshold, salt);
        address predicted = Clones.predictDeterministicAddress(address(accountImplementation), cloneSalt);
        if (predicted.code.length > 0) return WeightedMultisigAccount(payable(predicted));
        account = WeightedMultisigAccount(payable(Clones.cloneDeterministic(address(accountImplementation), cloneSalt)));
        account.initialize(signers, weights, threshold);
        emit AccountCreated(address(account), signers, weights, threshold, salt);
    }

    /// @notice The counterfactual address createAccount gives for these arguments.
    function getAddress(address[] calldata signers, uint64[] calldata weights, uint64 threshold, uint256 salt)
        external
        view
        returns (address)
    {
        return Clones.predictDeterministicAddress(
            address(accountImplementation), _cloneSalt(signers, weights, threshold, salt)
        );
    }

    function _cloneSalt(address[] calldata signers, uint64[] calldata weights, uint64 threshold, uint256 salt)
        private
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(signers, weights, threshold, salt));
    }
}
