// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BlockListModuleBase} from "./BlockListModuleBase.sol";

/// @notice identity-block-list-v2: wallets whose registered identity is listed may neither send nor
/// receive. params: abi.encode(address[] identities) (may be empty). Mints check the recipient; burns pass.
contract IdentityBlockListModule is BlockListModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "identity-block-list-v2";
    }

    function _blockedReason(bytes32 scope, address wallet, string memory side)
        internal
        view
        override
        returns (string memory)
    {
        address identity = _identityOf(wallet);
        if (identity == address(0) || !_hasAddress(scope, identity)) return "";
        return string.concat(side, " identity blocked");
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeAddresses(token, abi.decode(params, (address[])), true);
    }
}
