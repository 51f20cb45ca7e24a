// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";

/// @notice Test-only: a clonable factory recording what its initializer was given.
contract MockSystemTokenFactory is Initializable {
    address public system;
    address public tokenImplementation;

    constructor() {
        _disableInitializers();
    }

    function initialize(address system_, address tokenImplementation_) external initializer {
        system = system_;
        tokenImplementation = tokenImplementation_;
    }
}

/// @notice Test-only: a clonable addon (factory or singleton) with a version and a name.
contract MockSystemAddon is Initializable {
    string public label;
    uint256 public immutable version;

    constructor(uint256 version_) {
        version = version_;
        _disableInitializers();
    }

    function initialize(string calldata label_) external initializer {
        label = label_;
    }
}

/// @notice Test-only: a compliance module type (only `typeId()` matters to the registry).
contract MockSystemComplianceModule {
    string public typeId;

    constructor(string memory typeId_) {
        typeId = typeId_;
    }
}

/// @notice Test-only: the System's `isSystemManaged` answer, set by hand.
contract MockSystemManagedOracle {
    mapping(address => bool) public isSystemManaged;

    function setSystemManaged(address account, bool managed) external {
        isSystemManaged[account] = managed;
    }
}
