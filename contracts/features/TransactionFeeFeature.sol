// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TransactionFeeSchedule} from "./TransactionFeeSchedule.sol";

/// @notice Fee taken in the token itself (schedule in TransactionFeeSchedule). Mint and transfer: the
/// fee moves from the receiver to `recipient`; burn: the fee share of the burnt amount is minted to
/// `recipient`. Incompatible with transaction-fee-accounting.
contract TransactionFeeFeature is TransactionFeeSchedule {
    event TransactionFeeCollected(
        address indexed sender,
        address indexed payer,
        address indexed recipient,
        address from,
        address to,
        uint256 amount,
        uint256 fee
    );

    function _feeMoves() internal pure override returns (bool) {
        return true;
    }

    function _takeFee(address sender, address payer, address from, address to, uint256 amount, uint256 fee)
        internal
        override
    {
        if (to == address(0)) _featureToken().featureMint(recipient, fee);
        else _featureToken().featureTransfer(payer, recipient, fee);
        emit TransactionFeeCollected(sender, payer, recipient, from, to, amount, fee);
    }
}
