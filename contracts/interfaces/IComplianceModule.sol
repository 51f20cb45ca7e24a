// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A shared compliance module: one deployment per system serves every token, with per-token
/// parameters. Only the system's compliance engine calls the state-changing functions.
interface IComplianceModule {
    /// Stable control type id from the spec, e.g. "capped-v2", "country-allow-list-v2", or a legacy v1 id.
    function typeId() external view returns (string memory);
    /// 1 for legacy modules, 2 for the current generation.
    function moduleSetVersion() external view returns (uint8);

    /// Returns the refusal instead of reverting, so the engine can name the module without parsing revert data.
    function check(address token, address from, address to, uint256 amount)
        external
        view
        returns (bool allowed, string memory reason);

    /// Validates and stores `params` (ABI-encoded, shape documented per module) for `token`.
    function setParameters(address token, bytes calldata params) external;
    function clearParameters(address token) external;
    function parametersOf(address token) external view returns (bytes memory);

    function transferred(address token, address from, address to, uint256 amount) external;
    function created(address token, address to, uint256 amount) external;
    function destroyed(address token, address from, uint256 amount) external;
}
