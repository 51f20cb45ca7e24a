// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ListModuleBase} from "./ListModuleBase.sol";

/// @notice address-block-list-v2: blocked wallets may neither send nor receive.
/// params: abi.encode(address[] blocked) (may be empty). Mints check the recipient; burns pass.
contract AddressBlockListModule is ListModuleBase {
    function typeId() public pure virtual override returns (string memory) {
        return "address-block-list-v2";
    }

    function check(address token, address from, address to, uint256)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (to == address(0)) return (true, "");
        bytes32 scope = _listScope(token);
        if (from != address(0) && _hasAddress(scope, from)) return (false, "sender address blocked");
        if (_hasAddress(scope, to)) return (false, "recipient address blocked");
        return (true, "");
    }

    function _configure(address token, bytes calldata params) internal override {
        _storeAddresses(token, abi.decode(params, (address[])), true);
    }
}
