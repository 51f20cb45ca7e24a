// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";

/// @notice Clones an implementation and calls its initializer in one transaction, as a system would.
contract MockCloner {
    event Cloned(address indexed implementation, address clone);

    function cloneAndCall(address implementation, bytes calldata initData) external returns (address clone) {
        clone = Clones.clone(implementation);
        Address.functionCall(clone, initData);
        emit Cloned(implementation, clone);
    }
}
