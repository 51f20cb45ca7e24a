// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

/// @notice Test-only: an OpenZeppelin ERC-20 with Pausable (its Paused/Unpaused events), open minting and pausing
/// (external tokens whose pause state the index follows).
contract MockPausableERC20 is ERC20, Pausable {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function pause() external {
        _pause();
    }

    function unpause() external {
        _unpause();
    }
}
