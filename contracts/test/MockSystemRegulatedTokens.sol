// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Test-only: answers the ERC-3643 (T-REX) getters the external token registry probes (each with itself).
abstract contract MockRegulatedGetters is ERC20 {
    function identityRegistry() external view returns (address) {
        return address(this);
    }

    function compliance() external view returns (address) {
        return address(this);
    }

    function onchainID() external view returns (address) {
        return address(this);
    }
}

/// @notice Test-only: an ERC-3643 (T-REX) token.
contract MockSystemERC3643Token is MockRegulatedGetters {
    constructor() ERC20("Regulated", "REG") {}
}

/// @notice Test-only: answers the SMART getters (identityRegistry, compliance, complianceModules) and
/// also onchainID, as SMART tokens do.
contract MockSystemSmartToken is MockRegulatedGetters {
    constructor() ERC20("Smart", "SMRT") {}

    function complianceModules() external pure returns (address[] memory modules) {
        modules = new address[](0);
    }
}

/// @notice Test-only: an old-style token whose name and symbol are bytes32 and that has no decimals().
contract MockSystemBytes32Token {
    bytes32 public constant name = "Maker";
    bytes32 public constant symbol = "MKR";

    function totalSupply() external pure returns (uint256) {
        return 1;
    }

    function balanceOf(address) external pure returns (uint256) {
        return 0;
    }
}
