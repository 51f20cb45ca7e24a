// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FeatureIds} from "./FeatureIds.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice The schedule shared by transaction-fee and transaction-fee-accounting.
/// params = abi.encode(uint256 mintFeeBps, uint256 burnFeeBps, uint256 transferFeeBps, address recipient).
/// The fee is a share of the moved amount borne by the receiving side (the minted-to or transferred-to
/// account) or, for a burn, by the burner. Movements by features, forced transfers and fees the recipient
/// would bear itself carry no fee.
abstract contract TransactionFeeSchedule is TokenFeature {
    uint256 public mintFeeBps;
    uint256 public burnFeeBps;
    uint256 public transferFeeBps;
    address public recipient;

    /// Which of the two schedules this is: the fee moved in the token (transaction-fee) or only recorded as owed
    /// (transaction-fee-accounting). The two exclude each other.
    function _feeMoves() internal pure virtual returns (bool);

    function featureId() public pure override returns (string memory) {
        return _feeMoves() ? FeatureIds.TRANSACTION_FEE : FeatureIds.TRANSACTION_FEE_ACCOUNTING;
    }

    function incompatibleFeatures() external pure override returns (string[] memory) {
        return FeatureIds.one(_feeMoves() ? FeatureIds.TRANSACTION_FEE_ACCOUNTING : FeatureIds.TRANSACTION_FEE);
    }

    function hooksBalanceChanges() external pure override returns (bool) {
        return true;
    }

    function parameters() public view override returns (bytes memory) {
        return abi.encode(mintFeeBps, burnFeeBps, transferFeeBps, recipient);
    }

    /// The account that bears the fee and the fee for one movement (0 when none applies).
    function feeFor(address sender, address from, address to, uint256 amount)
        public
        view
        returns (address payer, uint256 fee)
    {
        uint256 bps;
        if (from == address(0)) (payer, bps) = (to, mintFeeBps);
        else if (to == address(0)) (payer, bps) = (from, burnFeeBps);
        else (payer, bps) = (to, transferFeeBps);
        if (bps == 0 || payer == recipient || _featureToken().isFeeExempt(sender)) return (payer, 0);
        fee = amount * bps / BPS;
    }

    function onUpdate(address sender, address from, address to, uint256 amount) external override onlyToken {
        (address payer, uint256 fee) = feeFor(sender, from, to, amount);
        if (fee != 0) _takeFee(sender, payer, from, to, amount, fee);
    }

    /// Collects or records a non-zero `fee` that `payer` owes `recipient` for one movement.
    function _takeFee(address sender, address payer, address from, address to, uint256 amount, uint256 fee)
        internal
        virtual;

    function _configure(address, bytes calldata params, bool) internal override {
        (uint256 mintBps, uint256 burnBps, uint256 transferBps, address recipient_) =
            abi.decode(params, (uint256, uint256, uint256, address));
        _requireBps(mintBps, "mintFeeBps");
        _requireBps(burnBps, "burnFeeBps");
        _requireBps(transferBps, "transferFeeBps");
        _requireAddress(recipient_, "recipient");
        mintFeeBps = mintBps;
        burnFeeBps = burnBps;
        transferFeeBps = transferBps;
        recipient = recipient_;
    }
}
