// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {FeatureIds} from "./FeatureIds.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice A flat fee per mint, burn or transfer, paid in another ERC-20 (`feeToken`) by the account
/// that asked the token (the sender), pulled with transferFrom (the sender approves this feature).
/// params = abi.encode(address feeToken, uint256 mintFeeAmount, uint256 burnFeeAmount,
/// uint256 transferFeeAmount, address recipient). Feature movements and forced transfers are exempt.
contract ExternalTransactionFeeFeature is TokenFeature {
    using SafeERC20 for IERC20;

    address public feeToken;
    uint256 public mintFeeAmount;
    uint256 public burnFeeAmount;
    uint256 public transferFeeAmount;
    address public recipient;

    event ExternalTransactionFeeCharged(
        address indexed sender,
        address indexed feeToken,
        address indexed recipient,
        address from,
        address to,
        uint256 amount,
        uint256 fee
    );

    function featureId() public pure override returns (string memory) {
        return FeatureIds.EXTERNAL_TRANSACTION_FEE;
    }

    function hooksBalanceChanges() external pure override returns (bool) {
        return true;
    }

    function parameters() public view override returns (bytes memory) {
        return abi.encode(feeToken, mintFeeAmount, burnFeeAmount, transferFeeAmount, recipient);
    }

    function onUpdate(address sender, address from, address to, uint256 amount) external override onlyToken {
        uint256 fee = from == address(0) ? mintFeeAmount : to == address(0) ? burnFeeAmount : transferFeeAmount;
        if (fee == 0 || sender == recipient || _featureToken().isFeeExempt(sender)) return;
        IERC20(feeToken).safeTransferFrom(sender, recipient, fee);
        emit ExternalTransactionFeeCharged(sender, feeToken, recipient, from, to, amount, fee);
    }

    function _configure(address, bytes calldata params, bool) internal override {
        (address feeToken_, uint256 mintFee, uint256 burnFee, uint256 transferFee, address recipient_) =
            abi.decode(params, (address, uint256, uint256, uint256, address));
        _requireAddress(feeToken_, "feeToken");
        _requireAddress(recipient_, "recipient");
        feeToken = feeToken_;
        mintFeeAmount = mintFee;
        burnFeeAmount = burnFee;
        transferFeeAmount = transferFee;
        recipient = recipient_;
    }
}
