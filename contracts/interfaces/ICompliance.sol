// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A system's compliance engine. Tokens call it on every balance change; it runs the token's
/// modules (shared contracts that hold per-token parameters). Calls that change state come from the
/// token itself (msg.sender is the token).
interface ICompliance {
    /// @dev A refused transfer names the module, its control type id (e.g. "country-allow-list-v2")
    /// and a human-readable reason.
    error ComplianceCheckFailed(address module, string typeId, string reason);

    event ModuleAdded(address indexed sender, address indexed token, address indexed module, string typeId, bytes params);
    event ModuleParametersUpdated(address indexed sender, address indexed token, address indexed module, bytes params);
    event ModuleRemoved(address indexed sender, address indexed token, address indexed module);

    /// Reverts with ComplianceCheckFailed when any module of `token` refuses. from == 0 is a mint, to == 0 a burn.
    function checkTransfer(address token, address from, address to, uint256 amount) external view;
    /// Whether `checkTransfer` would pass, and the refusal when it would not (module 0 when it passes).
    function canTransfer(address token, address from, address to, uint256 amount)
        external
        view
        returns (bool allowed, address module, string memory typeId, string memory reason);

    /// Post-change hooks for stateful modules (investor count, time lock, capital raise). msg.sender is the token.
    function transferred(address from, address to, uint256 amount) external;
    function created(address to, uint256 amount) external;
    function destroyed(address from, uint256 amount) external;

    /// Module list management; msg.sender is the token (which checks its own governance role first).
    /// `sender` is the account that asked the token, for events.
    function addModule(address sender, address module, bytes calldata params) external;
    function setModuleParameters(address sender, address module, bytes calldata params) external;
    function removeModule(address sender, address module) external;
    /// A module in force for `token` (msg.sender) changed the token's parameters itself (e.g. its collateral oracle
    /// handed its seat over): announced with ModuleParametersUpdated, as a change by the token is. `sender` is the
    /// account that made the change.
    function moduleParametersChanged(address sender, address token, bytes calldata params) external;
    function modulesOf(address token) external view returns (address[] memory);
}
