// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FeatureIds} from "./FeatureIds.sol";
import {TokenFeature} from "./TokenFeature.sol";

/// @notice Assets-under-management fee: `feeBps` per year of the total supply, accrued by the second
/// since the last collection and minted to `recipient` when anyone calls `collect`.
/// params = abi.encode(uint256 feeBps, address recipient). An update collects at the old terms first.
contract AumFeeFeature is TokenFeature {
    uint256 public feeBps;
    address public recipient;
    uint256 public lastCollected;

    event AumFeeCollected(
        address indexed sender, address indexed recipient, uint256 amount, uint256 fromTimestamp, uint256 toTimestamp
    );

    function featureId() public pure override returns (string memory) {
        return FeatureIds.AUM_FEE;
    }

    function parameters() public view override returns (bytes memory) {
        return abi.encode(feeBps, recipient);
    }

    function accruedFee() public view returns (uint256) {
        uint256 elapsed = block.timestamp - lastCollected;
        return Math.mulDiv(_featureToken().totalSupply(), feeBps * elapsed, BPS * YEAR);
    }

    function collect() public returns (uint256 fee) {
        fee = accruedFee();
        uint256 from = lastCollected;
        lastCollected = block.timestamp;
        if (fee != 0) _featureToken().featureMint(recipient, fee);
        emit AumFeeCollected(msg.sender, recipient, fee, from, block.timestamp);
    }

    function _configure(address, bytes calldata params, bool initializing) internal override {
        (uint256 bps, address recipient_) = abi.decode(params, (uint256, address));
        _requireBps(bps, "feeBps");
        _requireAddress(recipient_, "recipient");
        if (initializing) lastCollected = block.timestamp;
        else collect();
        feeBps = bps;
        recipient = recipient_;
    }
}
