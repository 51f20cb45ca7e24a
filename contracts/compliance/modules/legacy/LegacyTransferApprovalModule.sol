// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TransferApprovalModule} from "../TransferApprovalModule.sol";

/// @notice Legacy `transfer-approval` (moduleSetVersion 1): the `transfer-approval-v2` rules and params under the v1 id.
contract LegacyTransferApprovalModule is TransferApprovalModule {
    function typeId() public pure override returns (string memory) {
        return "transfer-approval";
    }

    function moduleSetVersion() public pure override returns (uint8) {
        return 1;
    }
}
