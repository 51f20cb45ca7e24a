// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC2771Forwarder} from "@openzeppelin/contracts/metatx/ERC2771Forwarder.sol";

/// @notice The chain's ERC-2771 forwarder, deployed once per chain (CREATE2, no constructor arguments).
/// EIP-712 domain: name "Forwarder", version "1".
contract Forwarder is ERC2771Forwarder {
    constructor() ERC2771Forwarder("Forwarder") {}
}
