// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {SponsoringPaymaster} from "./SponsoringPaymaster.sol";

/// @notice Deploys one SponsoringPaymaster per owner (an organisation's wallet) with CREATE2, so its address is
/// known before it exists and a repeated call returns the same paymaster; PaymasterCreated lets an index follow
/// every paymaster without an eth_call.
contract SponsoringPaymasterFactory {
    IEntryPoint public immutable entryPoint;

    event PaymasterCreated(address indexed paymaster, address indexed owner);

    constructor(IEntryPoint anEntryPoint) {
        entryPoint = anEntryPoint;
    }

    /// @notice Idempotent: returns the owner's existing paymaster (without an event) when it is deployed already.
    function createPaymaster(address owner) external returns (SponsoringPaymaster paymaster) {
        address predicted = getAddress(owner);
        if (predicted.code.length > 0) return SponsoringPaymaster(payable(predicted));
        paymaster = new SponsoringPaymaster{salt: _salt(owner)}(entryPoint, owner);
        emit PaymasterCreated(address(paymaster), owner);
    }

    /// @notice The address createPaymaster gives for `owner`.
    function getAddress(address owner) public view returns (address) {
        bytes32 initCodeHash =
            keccak256(abi.encodePacked(type(SponsoringPaymaster).creationCode, abi.encode(entryPoint, owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), _salt(owner), initCodeHash)))));
    }

    function _salt(address owner) private pure returns (bytes32) {
        return bytes32(uint256(uint160(owner)));
    }
}
