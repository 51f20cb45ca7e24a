// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BlockListModuleBase} from "./BlockListModuleBase.sol";

/// @notice address-block-list-v2: blocked wallets may neither send nor receive.
/// params: abi.encode(address[] blocked) (may be empty). Mints check the recipient; burns pass.
contract AddressBlockListModule is BlockListModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "address-block-list-v2";
    }

    function _blockedReason(bytes32 scope, address wallet, string memory side)
        internal
        view
        override
        returns (string memory)
    {
        return _hasAddress(scope, wallet) ? string.concat(side, " address blocked") : "";
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeAddresses(token, abi.decode(params, (address[])), true);
    }
}
