// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ICompliance} from "../interfaces/ICompliance.sol";

/// @notice Test double for the token tests: refuses any movement above `limit`, counts the post-hooks
/// and keeps a module list per token.
contract TokenMockCompliance is ICompliance {
    uint256 public limit;
    uint256 public createdCount;
    uint256 public transferredCount;
    uint256 public destroyedCount;
    mapping(address token => address[]) private _modules;

    constructor(uint256 limit_) {
        limit = limit_;
    }

    function checkTransfer(address token, address from, address to, uint256 amount) external view {
        (bool allowed,, string memory typeId, string memory reason) = canTransfer(token, from, to, amount);
        if (!allowed) revert ComplianceCheckFailed(address(this), typeId, reason);
    }

    function canTransfer(address, address, address, uint256 amount)
        public
        view
        returns (bool allowed, address module, string memory typeId, string memory reason)
    {
        if (amount <= limit) return (true, address(0), "", "");
        return (false, address(this), "mock-limit", "amount above limit");
    }

    function transferred(address, address, uint256) external {
        transferredCount++;
    }

    function created(address, uint256) external {
        createdCount++;
    }

    function destroyed(address, uint256) external {
        destroyedCount++;
    }

    function addModule(address sender, address module, bytes calldata params) external {
        _modules[msg.sender].push(module);
        emit ModuleAdded(sender, msg.sender, module, "mock-module", params);
    }

    function setModuleParameters(address sender, address module, bytes calldata params) external {
        emit ModuleParametersUpdated(sender, msg.sender, module, params);
    }

    function moduleParametersChanged(address sender, address token, bytes calldata params) external {
        emit ModuleParametersUpdated(sender, token, msg.sender, params);
    }

    function removeModule(address sender, address module) external {
        address[] storage list = _modules[msg.sender];
        for (uint256 i = 0; i < list.length; i++) {
            if (list[i] == module) {
                list[i] = list[list.length - 1];
                list.pop();
                break;
            }
        }
        emit ModuleRemoved(sender, msg.sender, module);
    }

    function modulesOf(address token) external view returns (address[] memory) {
        return _modules[token];
    }
}
