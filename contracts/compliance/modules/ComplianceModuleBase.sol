// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {ICompliance} from "../../interfaces/ICompliance.sol";
import {IComplianceModule} from "../../interfaces/IComplianceModule.sol";
import {IIdentityRegistry} from "../../interfaces/IIdentityRegistry.sol";

/// @notice Shared plumbing of every module: one clone per system, bound to that system's engine,
/// raw parameters per token, and a per-token generation that scopes state so removal forgets it.
abstract contract ComplianceModuleBase is IComplianceModule, Initializable {
    address public compliance;
    IIdentityRegistry public identityRegistry;

    mapping(address token => bytes) private _parameters;
    mapping(address token => uint256) private _generation;

    error ZeroCompliance();
    error OnlyCompliance(address caller);
    error TokenNotConfigured(address token);

    modifier onlyCompliance() {
        if (msg.sender != compliance) revert OnlyCompliance(msg.sender);
        _;
    }

    constructor() {
        _disableInitializers();
    }

    function initialize(address compliance_, address identityRegistry_) external initializer {
        if (compliance_ == address(0)) revert ZeroCompliance();
        compliance = compliance_;
        identityRegistry = IIdentityRegistry(identityRegistry_);
    }

    function typeId() public pure virtual returns (string memory);

    function moduleSetVersion() public pure virtual returns (uint8) {
        return 2;
    }

    function setParameters(address token, bytes calldata params) external onlyCompliance {
        _configure(token, params);
        _parameters[token] = params;
    }

    /// @dev Bumping the generation orphans every scoped entry of the token in O(1).
    function clearParameters(address token) external onlyCompliance {
        delete _parameters[token];
        _generation[token] += 1;
        _clear(token);
    }

    function parametersOf(address token) external view returns (bytes memory) {
        return _parameters[token];
    }

    function isConfigured(address token) public view returns (bool) {
        return _parameters[token].length != 0;
    }

    function transferred(address token, address from, address to, uint256 amount) external onlyCompliance {
        _afterTransfer(token, from, to, amount);
    }

    function created(address token, address to, uint256 amount) external onlyCompliance {
        _afterTransfer(token, address(0), to, amount);
    }

    function destroyed(address token, address from, uint256 amount) external onlyCompliance {
        _afterTransfer(token, from, address(0), amount);
    }

    /// Parameters the module changed itself (not through the engine): stored, and announced by the engine so the
    /// index sees them as it sees the token's changes. `sender` made the change.
    function _parametersChanged(address sender, address token, bytes memory params) internal {
        _parameters[token] = params;
        ICompliance(compliance).moduleParametersChanged(sender, token, params);
    }

    /// Validates and stores the decoded `params`; reverts with the module's custom errors.
    function _configure(address token, bytes calldata params) internal virtual;

    /// Deletes typed parameters kept by token (scoped state is already orphaned by the new generation).
    function _clear(address token) internal virtual {}

    /// Post-change hook (balances already moved); from == 0 for mints, to == 0 for burns.
    function _afterTransfer(address token, address from, address to, uint256 amount) internal virtual {}

    /// Storage key of the token's current generation; every per-token entry derives from it.
    function _scope(address token) internal view returns (bytes32) {
        return keccak256(abi.encode(token, _generation[token]));
    }

    function _requireConfigured(address token) internal view {
        if (!isConfigured(token)) revert TokenNotConfigured(token);
    }

    /// Registry country of `wallet`, 0 when it is not registered.
    function _countryOf(address wallet) internal view returns (uint16) {
        return identityRegistry.contains(wallet) ? identityRegistry.investorCountry(wallet) : 0;
    }

    /// Registry identity of `wallet`, address(0) when it is not registered.
    function _identityOf(address wallet) internal view returns (address) {
        return identityRegistry.contains(wallet) ? identityRegistry.identity(wallet) : address(0);
    }
}
