// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ICompliance} from "../interfaces/ICompliance.sol";

/// @notice Test token that drives the engine as the platform token will: checkTransfer before the
/// balances move, created/transferred/destroyed after, module management through the token.
contract MockComplianceToken is ERC20 {
    ICompliance public immutable compliance;

    constructor(address compliance_) ERC20("Mock", "MCK") {
        compliance = ICompliance(compliance_);
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function burn(address from, uint256 amount) external {
        _burn(from, amount);
    }

    function addModule(address module, bytes calldata params) external {
        compliance.addModule(msg.sender, module, params);
    }

    function setModuleParameters(address module, bytes calldata params) external {
        compliance.setModuleParameters(msg.sender, module, params);
    }

    function removeModule(address module) external {
        compliance.removeModule(msg.sender, module);
    }

    function _update(address from, address to, uint256 value) internal override {
        compliance.checkTransfer(address(this), from, to, value);
        super._update(from, to, value);
        if (from == address(0)) compliance.created(to, value);
        else if (to == address(0)) compliance.destroyed(from, value);
        else compliance.transferred(from, to, value);
    }
}
