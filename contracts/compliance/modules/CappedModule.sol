// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {ComplianceModuleBase} from "./ComplianceModuleBase.sol";

/// @notice capped-v2: total supply may not exceed a maximum (raw units).
/// params: abi.encode(uint256 maxSupply) (> 0; may be below the current supply, which then stops
/// further mints). Only mints are checked.
contract CappedModule is ComplianceModuleBase {
    mapping(address token => uint256) public maxSupplyOf;

    error ZeroMaxSupply();

    function typeId() public pure virtual override returns (string memory) {
        return "capped-v2";
    }

    function check(address token, address from, address, uint256 amount)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (from != address(0)) return (true, "");
        uint256 cap = maxSupplyOf[token];
        if (IERC20(token).totalSupply() + amount > cap) {
            return (false, string.concat("max supply ", Strings.toString(cap), " exceeded"));
        }
        return (true, "");
    }

    function _clear(address token) internal override {
        delete maxSupplyOf[token];
    }

    function _configure(address token, bytes calldata params) internal override {
        uint256 maxSupply = abi.decode(params, (uint256));
        if (maxSupply == 0) revert ZeroMaxSupply();
        maxSupplyOf[token] = maxSupply;
    }
}
