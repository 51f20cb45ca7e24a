// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {ICompliance} from "../interfaces/ICompliance.sol";
import {IComplianceModule} from "../interfaces/IComplianceModule.sol";
import {SystemRoles} from "../system/SystemRoles.sol";
import {ComplianceModuleBase} from "./modules/ComplianceModuleBase.sol";

/// @notice A system's compliance engine (one clone per system). The system registers its shared
/// module deployments; each token (msg.sender) keeps an ordered list of them, all of one
/// moduleSetVersion, and the engine runs that list on every balance change.
contract Compliance is ICompliance, Initializable {
    uint256 public constant MAX_MODULES_PER_TOKEN = 32;

    /// The system's access control: it, or a holder of its SYSTEM_MANAGER_ROLE, registers modules.
    address public accessControl;
    address public identityRegistry;

    mapping(address module => bool) public isRegisteredModule;
    mapping(address token => address[]) private _modules;
    mapping(address token => mapping(address module => bool)) public hasModule;
    /// 1 or 2 while the token has modules, 0 when it has none.
    mapping(address token => uint8) public moduleSetVersionOf;

    event ModuleRegistered(address indexed sender, address indexed module, string typeId, uint8 moduleSetVersion);
    event ModuleUnregistered(address indexed sender, address indexed module);

    error ZeroAccessControl();
    error NotSystemManager(address account);
    error InvalidModule(address module);
    error ModuleAlreadyRegistered(address module);
    error ModuleNotRegistered(address module);
    error UnknownModule(address module);
    error ModuleAlreadyAdded(address token, address module);
    error ModuleNotAdded(address token, address module);
    error ModuleSetVersionMismatch(address token, uint8 tokenVersion, address module, uint8 moduleVersion);
    error TooManyModules(address token, uint256 max);

    constructor() {
        _disableInitializers();
    }

    function initialize(address accessControl_, address identityRegistry_) external initializer {
        if (accessControl_ == address(0)) revert ZeroAccessControl();
        accessControl = accessControl_;
        identityRegistry = identityRegistry_;
    }

    // ---- module registry (system side) ----

    /// Makes a module deployment available to the system's tokens; it must be bound to this engine.
    function registerModule(address module) external {
        _requireSystemManager();
        if (module.code.length == 0) revert InvalidModule(module);
        try ComplianceModuleBase(module).compliance() returns (address bound) {
            if (bound != address(this)) revert InvalidModule(module);
        } catch {
            revert InvalidModule(module);
        }
        uint8 version = IComplianceModule(module).moduleSetVersion();
        if (version != 1 && version != 2) revert InvalidModule(module);
        if (isRegisteredModule[module]) revert ModuleAlreadyRegistered(module);
        isRegisteredModule[module] = true;
        emit ModuleRegistered(msg.sender, module, IComplianceModule(module).typeId(), version);
    }

    /// Stops new tokens from adding the module; tokens that already use it keep it.
    function unregisterModule(address module) external {
        _requireSystemManager();
        if (!isRegisteredModule[module]) revert ModuleNotRegistered(module);
        isRegisteredModule[module] = false;
        emit ModuleUnregistered(msg.sender, module);
    }

    // ---- per-token module lists (msg.sender is the token) ----

    function addModule(address sender, address module, bytes calldata params) external {
        address token = msg.sender;
        if (!isRegisteredModule[module]) revert UnknownModule(module);
        if (hasModule[token][module]) revert ModuleAlreadyAdded(token, module);
        if (_modules[token].length >= MAX_MODULES_PER_TOKEN) revert TooManyModules(token, MAX_MODULES_PER_TOKEN);
        uint8 version = IComplianceModule(module).moduleSetVersion();
        uint8 tokenVersion = moduleSetVersionOf[token];
        if (tokenVersion != 0 && tokenVersion != version) {
            revert ModuleSetVersionMismatch(token, tokenVersion, module, version);
        }
        IComplianceModule(module).setParameters(token, params);
        _modules[token].push(module);
        hasModule[token][module] = true;
        moduleSetVersionOf[token] = version;
        emit ModuleAdded(sender, token, module, IComplianceModule(module).typeId(), params);
    }

    function setModuleParameters(address sender, address module, bytes calldata params) external {
        address token = msg.sender;
        if (!hasModule[token][module]) revert ModuleNotAdded(token, module);
        IComplianceModule(module).setParameters(token, params);
        emit ModuleParametersUpdated(sender, token, module, params);
    }

    /// msg.sender is the module; only a module the token has may announce its parameters.
    function moduleParametersChanged(address sender, address token, bytes calldata params) external {
        if (!hasModule[token][msg.sender]) revert ModuleNotAdded(token, msg.sender);
        emit ModuleParametersUpdated(sender, token, msg.sender, params);
    }

    function removeModule(address sender, address module) external {
        address token = msg.sender;
        if (!hasModule[token][module]) revert ModuleNotAdded(token, module);
        address[] storage modules = _modules[token];
        uint256 last = modules.length - 1;
        // Shift instead of swap so the order (which module is reported first) stays stable.
        bool found = false;
        for (uint256 i = 0; i < last; i++) {
            if (modules[i] == module) found = true;
            if (found) modules[i] = modules[i + 1];
        }
        modules.pop();
        delete hasModule[token][module];
        if (last == 0) delete moduleSetVersionOf[token];
        IComplianceModule(module).clearParameters(token);
        emit ModuleRemoved(sender, token, module);
    }

    function modulesOf(address token) external view returns (address[] memory) {
        return _modules[token];
    }

    // ---- checks ----

    function checkTransfer(address token, address from, address to, uint256 amount) external view {
        (bool allowed, address module, string memory typeId, string memory reason) =
            canTransfer(token, from, to, amount);
        if (!allowed) revert ComplianceCheckFailed(module, typeId, reason);
    }

    function canTransfer(address token, address from, address to, uint256 amount)
        public
        view
        returns (bool allowed, address module, string memory typeId, string memory reason)
    {
        address[] storage modules = _modules[token];
        for (uint256 i = 0; i < modules.length; i++) {
            (bool ok, string memory why) = IComplianceModule(modules[i]).check(token, from, to, amount);
            if (!ok) return (false, modules[i], IComplianceModule(modules[i]).typeId(), why);
        }
        return (true, address(0), "", "");
    }

    // ---- post-change hooks (msg.sender is the token) ----

    function transferred(address from, address to, uint256 amount) external {
        address[] storage modules = _modules[msg.sender];
        for (uint256 i = 0; i < modules.length; i++) {
            IComplianceModule(modules[i]).transferred(msg.sender, from, to, amount);
        }
    }

    function created(address to, uint256 amount) external {
        address[] storage modules = _modules[msg.sender];
        for (uint256 i = 0; i < modules.length; i++) {
            IComplianceModule(modules[i]).created(msg.sender, to, amount);
        }
    }

    function destroyed(address from, uint256 amount) external {
        address[] storage modules = _modules[msg.sender];
        for (uint256 i = 0; i < modules.length; i++) {
            IComplianceModule(modules[i]).destroyed(msg.sender, from, amount);
        }
    }

    function _requireSystemManager() private view {
        if (msg.sender != accessControl && !IAccessControl(accessControl).hasRole(SystemRoles.SYSTEM_MANAGER_ROLE, msg.sender)) {
            revert NotSystemManager(msg.sender);
        }
    }
}
