// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {TokenRoles} from "./TokenRoles.sol";

/// @notice The platform's token: ERC-20 with roles and domain events that carry the sender.
/// Features (pause, freeze, checkpoints, fees, ...) extend it through `_update`.
contract Token is ERC20Upgradeable, AccessControlUpgradeable {
    uint8 private _decimals;
    address public system;

    event MintCompleted(address indexed sender, address indexed to, uint256 amount);
    event BurnCompleted(address indexed sender, address indexed from, uint256 amount);
    event TransferCompleted(address indexed sender, address indexed from, address indexed to, uint256 amount);

    error LengthMismatch(uint256 recipients, uint256 amounts);
    error EmptyBatch();

    constructor() {
        _disableInitializers();
    }

    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, address admin, address system_)
        external
        initializer
    {
        __ERC20_init(name_, symbol_);
        __AccessControl_init();
        _decimals = decimals_;
        system = system_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(TokenRoles.GOVERNANCE_ROLE, admin);
        _grantRole(TokenRoles.SUPPLY_MANAGEMENT_ROLE, admin);
        _grantRole(TokenRoles.CUSTODIAN_ROLE, admin);
        _grantRole(TokenRoles.EMERGENCY_ROLE, admin);
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external onlyRole(TokenRoles.SUPPLY_MANAGEMENT_ROLE) {
        _mint(to, amount);
    }

    function batchMint(address[] calldata to, uint256[] calldata amounts)
        external
        onlyRole(TokenRoles.SUPPLY_MANAGEMENT_ROLE)
    {
        if (to.length != amounts.length) revert LengthMismatch(to.length, amounts.length);
        if (to.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < to.length; i++) {
            _mint(to[i], amounts[i]);
        }
    }

    /// @dev One hook for every balance change, so each emits exactly one domain event.
    function _update(address from, address to, uint256 value) internal virtual override {
        super._update(from, to, value);
        if (from == address(0)) emit MintCompleted(_msgSender(), to, value);
        else if (to == address(0)) emit BurnCompleted(_msgSender(), from, value);
        else emit TransferCompleted(_msgSender(), from, to, value);
    }
}
