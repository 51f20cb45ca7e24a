// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {VotesUpgradeable} from "@openzeppelin/contracts-upgradeable/governance/utils/VotesUpgradeable.sol";
import {FeatureIds} from "./FeatureIds.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice ERC-5805 votes over the token's balances: holders delegate on this feature's address
/// (`delegate`, `delegateBySig`), read `getVotes` / `getPastVotes` / `getPastTotalSupply`.
/// Timestamp clock. No parameters.
contract VotingPowerFeature is TokenFeature, VotesUpgradeable {
    function featureId() public pure override returns (string memory) {
        return FeatureIds.VOTING_POWER;
    }

    function hooksBalanceChanges() external pure override returns (bool) {
        return true;
    }

    function onUpdate(address, address from, address to, uint256 amount) external override onlyToken {
        _transferVotingUnits(from, to, amount);
    }

    function clock() public view override returns (uint48) {
        return uint48(block.timestamp);
    }

    // solhint-disable-next-line func-name-mixedcase
    function CLOCK_MODE() public pure override returns (string memory) {
        return "mode=timestamp";
    }

    function _configure(address sender, bytes calldata params, bool initializing) internal override {
        super._configure(sender, params, initializing);
        __EIP712_init(_featureToken().name(), "1");
    }

    function _getVotingUnits(address account) internal view override returns (uint256) {
        return _featureToken().balanceOf(account);
    }
}
