// SPDX-License-Identifier: GPL-3.0
// GPL-3.0 as the EntryPoint it extends (@account-abstraction/contracts 0.8.0).
pragma solidity ^0.8.28;

import {EntryPoint} from "@account-abstraction/contracts/core/EntryPoint.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {IEntryPointSimulations} from "@account-abstraction/contracts/interfaces/IEntryPointSimulations.sol";
import {ISenderCreator} from "@account-abstraction/contracts/interfaces/ISenderCreator.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";

/// EntryPoint v0.8's simulateValidation and simulateHandleOp (IEntryPointSimulations: the same ABI, results and
/// errors as the release's EntryPointSimulations) for the bundler to run through the EntryPoint's
/// `delegateAndRevert`: in the EntryPoint's own storage and address, without sending the simulations' 21 KB of code
/// as a state override in every eth_call. Deployed once per chain; whatever it runs is reverted by the EntryPoint.
/// Accounts trust only the EntryPoint, never this contract's address (its simulations check no signature).
contract DelegatedSimulationsV08 is EntryPoint, IEntryPointSimulations {
    /// This contract's address (kept in its code): under delegation `address(this)` is the EntryPoint's.
    address private immutable SELF = address(this);

    /// The running EntryPoint's SenderCreator (its first CREATE), which accepts calls from that EntryPoint only.
    function senderCreator() public view override(EntryPoint, IEntryPoint) returns (ISenderCreator) {
        return ISenderCreator(address(uint160(uint256(keccak256(abi.encodePacked(hex"d694", address(this), hex"01"))))));
    }

    function simulateValidation(PackedUserOperation calldata userOp) external returns (ValidationResult memory) {
        _revertUnlessDeployed(userOp);
        UserOpInfo memory info;
        (uint256 validationData, uint256 paymasterValidationData) = _validatePrepayment(0, userOp, info);
        return ValidationResult(
            ReturnInfo(
                info.preOpGas,
                info.prefund,
                validationData,
                paymasterValidationData,
                _getMemoryBytesFromOffset(info.contextOffset)
            ),
            _getStakeInfo(info.mUserOp.sender),
            _getStakeInfo(userOp.initCode.length >= 20 ? address(bytes20(userOp.initCode[0:20])) : address(0)),
            _getStakeInfo(info.mUserOp.paymaster),
            _aggregatorInfo(validationData)
        );
    }

    function simulateHandleOp(PackedUserOperation calldata op, address target, bytes calldata targetCallData)
        external
        nonReentrant
        returns (ExecutionResult memory)
    {
        _revertUnlessDeployed(op);
        UserOpInfo memory info;
        (uint256 validationData, uint256 paymasterValidationData) = _validatePrepayment(0, op, info);
        uint256 paid = _executeUserOp(0, op, info);
        bool targetSuccess;
        bytes memory targetResult;
        if (target != address(0)) (targetSuccess, targetResult) = target.call(targetCallData);
        return ExecutionResult(info.preOpGas, paid, validationData, paymasterValidationData, targetSuccess, targetResult);
    }

    /// Refuses an operation whose sender (without initCode) or paymaster has no code, by the release's reasons.
    function revertUnlessDeployed(bytes calldata initCode, address sender, bytes calldata paymasterAndData)
        external
        view
    {
        if (initCode.length == 0 && sender.code.length == 0) revert("AA20 account not deployed");
        if (paymasterAndData.length >= 20 && address(bytes20(paymasterAndData[0:20])).code.length == 0) {
            revert("AA30 paymaster not deployed");
        }
        revert(""); // always: the addresses it read stay cold for the validation's gas
    }

    function _revertUnlessDeployed(PackedUserOperation calldata op) internal view {
        try DelegatedSimulationsV08(payable(SELF)).revertUnlessDeployed(op.initCode, op.sender, op.paymasterAndData) {}
        catch Error(string memory reason) {
            if (bytes(reason).length != 0) revert FailedOp(0, reason);
        }
    }

    function _aggregatorInfo(uint256 validationData) internal view returns (AggregatorStakeInfo memory info) {
        address aggregator = address(uint160(validationData));
        if (uint160(aggregator) > 1) info = AggregatorStakeInfo(aggregator, _getStakeInfo(aggregator)); // 0 valid, 1 failed
    }
}
