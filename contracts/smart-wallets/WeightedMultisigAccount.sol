// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TokenCallbackHandler} from "@account-abstraction/contracts/accounts/callback/TokenCallbackHandler.sol";
import {BaseAccount} from "@account-abstraction/contracts/core/BaseAccount.sol";
import {SIG_VALIDATION_FAILED, SIG_VALIDATION_SUCCESS} from "@account-abstraction/contracts/core/Helpers.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {WeightedMultisig} from "./WeightedMultisig.sol";

/// @notice The platform's ERC-4337 (EntryPoint v0.8) smart wallet: a clone per wallet (WeightedMultisigAccountFactory)
/// whose validator is a weighted multisig. A user operation validates when the signatures packed in its `signature`
/// (see WeightedMultisig) over its userOpHash reach the threshold; otherwise SIG_VALIDATION_FAILED, never a revert.
/// The EntryPoint or the account itself runs `execute`/`executeBatch` and the signer-set management.
contract WeightedMultisigAccount is BaseAccount, TokenCallbackHandler, Initializable, WeightedMultisig {
    IEntryPoint private immutable _entryPoint;

    error CallerNotEntryPointOrSelf(address caller);

    constructor(IEntryPoint anEntryPoint) {
        _entryPoint = anEntryPoint;
        _disableInitializers();
    }

    /// @notice Emits SignerAdded per signer, then ThresholdChanged(0, threshold).
    function initialize(address[] calldata accounts, uint64[] calldata weights, uint64 initialThreshold)
        external
        initializer
    {
        _initializeSigners(accounts, weights, initialThreshold);
    }

    receive() external payable {}

    /// @inheritdoc BaseAccount
    function entryPoint() public view override returns (IEntryPoint) {
        return _entryPoint;
    }

    /// @notice The account's gas deposit at the EntryPoint.
    function getDeposit() external view returns (uint256) {
        return _entryPoint.balanceOf(address(this));
    }

    function addDeposit() external payable {
        _entryPoint.depositTo{value: msg.value}(address(this));
    }

    function withdrawDepositTo(address payable to, uint256 amount) external {
        _requireForExecute();
        _entryPoint.withdrawTo(to, amount);
    }

    function _requireForExecute() internal view override {
        if (msg.sender != address(_entryPoint) && msg.sender != address(this)) {
            revert CallerNotEntryPointOrSelf(msg.sender);
        }
    }

    function _requireForManagement() internal view override {
        _requireForExecute();
    }

    /// @dev userOpHash is the EIP-712 digest in v0.8: signers sign it as is (eth_signTypedData_v4 or a raw sign).
    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        view
        override
        returns (uint256 validationData)
    {
        return signatureWeight(userOpHash, userOp.signature) >= threshold()
            ? SIG_VALIDATION_SUCCESS
            : SIG_VALIDATION_FAILED;
    }
}
