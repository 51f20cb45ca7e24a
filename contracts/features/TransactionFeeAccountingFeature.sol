// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TransactionFeeSchedule} from "./TransactionFeeSchedule.sol";

/// @notice The transaction-fee schedule, but nothing moves: each fee is recorded as owed by the payer
/// to `recipient`; governance records settlements made off this token. Incompatible with transaction-fee.
contract TransactionFeeAccountingFeature is TransactionFeeSchedule {
    mapping(address payer => uint256) public feesOwed;
    uint256 public totalFeesOwed;

    event TransactionFeeAccrued(
        address indexed sender,
        address indexed payer,
        address indexed recipient,
        address from,
        address to,
        uint256 amount,
        uint256 fee
    );
    event TransactionFeeSettled(address indexed sender, address indexed payer, address indexed recipient, uint256 amount);

    error SettlementExceedsOwed(address payer, uint256 owed, uint256 amount);

    function _feeMoves() internal pure override returns (bool) {
        return false;
    }

    function _takeFee(address sender, address payer, address from, address to, uint256 amount, uint256 fee)
        internal
        override
    {
        feesOwed[payer] += fee;
        totalFeesOwed += fee;
        emit TransactionFeeAccrued(sender, payer, recipient, from, to, amount, fee);
    }

    /// Records that `payer` settled `amount` of what it owes (off this token).
    function settleFees(address payer, uint256 amount) external onlyGovernance {
        uint256 owed = feesOwed[payer];
        if (amount > owed) revert SettlementExceedsOwed(payer, owed, amount);
        feesOwed[payer] = owed - amount;
        totalFeesOwed -= amount;
        emit TransactionFeeSettled(msg.sender, payer, recipient, amount);
    }
}
