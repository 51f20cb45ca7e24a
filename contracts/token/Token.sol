// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {ERC20PermitUpgradeable} from
    "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC20PermitUpgradeable.sol";
import {MulticallUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/MulticallUpgradeable.sol";
import {TokenFeature} from "../features/TokenFeature.sol";
import {ICompliance} from "../interfaces/ICompliance.sol";
import {IIdentityRegistry} from "../interfaces/IIdentityRegistry.sol";
import {ISystemIdentityRegistry} from "../interfaces/ISystemIdentityRegistry.sol";
import {ITokenFeature} from "../interfaces/ITokenFeature.sol";
import {TokenDocuments} from "./TokenDocuments.sol";
import {TokenMetadata} from "./TokenMetadata.sol";
import {TokenRoles} from "./TokenRoles.sol";

/// @notice The platform's token: ERC-20 with roles, pause, address and partial freezes, forced transfers,
/// an optional compliance engine, issuer metadata, ERC-1643 documents, and features attached at creation.
/// Every balance change emits exactly one domain event carrying the sender, then runs the compliance
/// post-hook and the features' `onUpdate`. Only forced transfers skip the pause, freeze and compliance checks; like
/// ERC-3643's, they still need a receiver the system's identity registry verifies.
contract Token is ERC20PermitUpgradeable, AccessControlUpgradeable, MulticallUpgradeable, TokenDocuments, TokenMetadata {
    struct InitParams {
        string name;
        string symbol;
        uint8 decimals;
        address admin;
        address system;
        address compliance;
        address[] features;
        address[] modules;
        bytes[] moduleParams;
    }

    uint8 private _decimals;
    bool public paused;
    bool private _permitEnabled;
    address public system;
    address public compliance;
    mapping(address account => bool) public isFrozen;
    mapping(address account => uint256) public frozenBalanceOf;
    mapping(address account => bool) public isFeature;
    mapping(string featureId => address) public featureOf;
    address[] private _features;
    address[] private _hookedFeatures;
    /// Nesting of feature hooks in this transaction (a hook may move tokens once more, not deeper).
    uint256 private transient _hookDepth;
    /// Set by forcedTransfer for the one `_update` it triggers.
    bool private transient _forcing;
    /// Set while the hooks of a forced transfer run (fee features charge nothing then).
    bool private transient _inForcedHooks;

    event MintCompleted(address indexed sender, address indexed to, uint256 amount);
    event BurnCompleted(address indexed sender, address indexed from, uint256 amount);
    event TransferCompleted(address indexed sender, address indexed from, address indexed to, uint256 amount);
    event ForcedTransfer(address indexed sender, address indexed from, address indexed to, uint256 amount);
    event Paused(address indexed sender);
    event Unpaused(address indexed sender);
    event AddressFrozen(address indexed sender, address indexed account, bool frozen);
    event TokensFrozen(address indexed sender, address indexed account, uint256 amount);
    event TokensUnfrozen(address indexed sender, address indexed account, uint256 amount);
    event ComplianceSet(address indexed sender, address indexed compliance);

    error LengthMismatch(uint256 recipients, uint256 amounts);
    error EmptyBatch();
    error TokenPaused();
    error TokenNotPaused();
    error AccountFrozen(address account);
    /// A transfer, burn or freeze above the account's unfrozen balance (API: SVC-1106).
    error InsufficientUnfrozenBalance(address account, uint256 available, uint256 requested);
    error UnfreezeExceedsFrozen(address account, uint256 frozen, uint256 requested);
    error NotAttachedFeature(address caller);
    error FeatureHookReentrancy(address sender);
    error PermitNotEnabled();
    error NoCompliance();
    /// A forced transfer to a wallet the system's identity registry does not verify (API: TOKEN_RECEIVER_NOT_VERIFIED).
    error ReceiverNotVerified(address receiver);
    /// Raised by the compliance engine; declared here so callers decode it from this ABI.
    error ComplianceCheckFailed(address module, string typeId, string reason);

    modifier onlyFeature() {
        if (!isFeature[msg.sender]) revert NotAttachedFeature(msg.sender);
        _;
    }

    constructor() {
        _disableInitializers();
    }

    /// Called once by the token factory. Features are clones not yet initialised: only their pure
    /// `featureId` and `hooksBalanceChanges` are read here.
    function initialize(InitParams calldata p) external initializer {
        __ERC20_init(p.name, p.symbol);
        __EIP712_init(p.name, "1");
        _decimals = p.decimals;
        system = p.system;
        _grantRole(DEFAULT_ADMIN_ROLE, p.admin);
        _grantRole(TokenRoles.GOVERNANCE_ROLE, p.admin);
        _grantRole(TokenRoles.SUPPLY_MANAGEMENT_ROLE, p.admin);
        _grantRole(TokenRoles.CUSTODIAN_ROLE, p.admin);
        _grantRole(TokenRoles.EMERGENCY_ROLE, p.admin);
        for (uint256 i = 0; i < p.features.length; i++) {
            address feature = p.features[i];
            string memory id = ITokenFeature(feature).featureId();
            featureOf[id] = feature;
            isFeature[feature] = true;
            _features.push(feature);
            if (TokenFeature(feature).hooksBalanceChanges()) _hookedFeatures.push(feature);
            if (keccak256(bytes(id)) == keccak256("permit")) _permitEnabled = true;
        }
        if (p.modules.length != p.moduleParams.length) revert LengthMismatch(p.modules.length, p.moduleParams.length);
        if (p.compliance != address(0)) _setCompliance(p.admin, p.compliance);
        else if (p.modules.length != 0) revert NoCompliance();
        for (uint256 i = 0; i < p.modules.length; i++) {
            ICompliance(p.compliance).addModule(p.admin, p.modules[i], p.moduleParams[i]);
        }
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function features() external view returns (address[] memory) {
        return _features;
    }

    // ---- supply ----

    function mint(address to, uint256 amount) external onlyRole(TokenRoles.SUPPLY_MANAGEMENT_ROLE) {
        _mint(to, amount);
    }

    function batchMint(address[] calldata to, uint256[] calldata amounts)
        external
        onlyRole(TokenRoles.SUPPLY_MANAGEMENT_ROLE)
    {
        _checkBatch(to.length, amounts.length);
        for (uint256 i = 0; i < to.length; i++) {
            _mint(to[i], amounts[i]);
        }
    }

    function burn(address from, uint256 amount) external onlyRole(TokenRoles.SUPPLY_MANAGEMENT_ROLE) {
        _burn(from, amount);
    }

    function batchBurn(address[] calldata from, uint256[] calldata amounts)
        external
        onlyRole(TokenRoles.SUPPLY_MANAGEMENT_ROLE)
    {
        _checkBatch(from.length, amounts.length);
        for (uint256 i = 0; i < from.length; i++) {
            _burn(from[i], amounts[i]);
        }
    }

    // ---- emergency ----

    function pause() external onlyRole(TokenRoles.EMERGENCY_ROLE) {
        if (paused) revert TokenPaused();
        paused = true;
        emit Paused(_msgSender());
    }

    function unpause() external onlyRole(TokenRoles.EMERGENCY_ROLE) {
        if (!paused) revert TokenNotPaused();
        paused = false;
        emit Unpaused(_msgSender());
    }

    // ---- custody ----

    function setAddressFrozen(address account, bool frozen) external onlyRole(TokenRoles.CUSTODIAN_ROLE) {
        isFrozen[account] = frozen;
        emit AddressFrozen(_msgSender(), account, frozen);
    }

    function freezePartialTokens(address account, uint256 amount) external onlyRole(TokenRoles.CUSTODIAN_ROLE) {
        uint256 available = availableBalanceOf(account);
        if (amount > available) revert InsufficientUnfrozenBalance(account, available, amount);
        frozenBalanceOf[account] += amount;
        emit TokensFrozen(_msgSender(), account, amount);
    }

    function unfreezePartialTokens(address account, uint256 amount) external onlyRole(TokenRoles.CUSTODIAN_ROLE) {
        uint256 frozen = frozenBalanceOf[account];
        if (amount > frozen) revert UnfreezeExceedsFrozen(account, frozen, amount);
        frozenBalanceOf[account] = frozen - amount;
        emit TokensUnfrozen(_msgSender(), account, amount);
    }

    /// Balance not held by a partial freeze.
    function availableBalanceOf(address account) public view returns (uint256) {
        uint256 balance = balanceOf(account);
        uint256 frozen = frozenBalanceOf[account];
        return balance > frozen ? balance - frozen : 0;
    }

    /// Moves tokens regardless of pause, freezes and compliance, unfreezing partial amounts as needed. The receiver
    /// must be verified by the system's identity registry (ERC-3643): a custodian cannot place the asset in a wallet
    /// without an identity.
    function forcedTransfer(address from, address to, uint256 amount)
        external
        onlyRole(TokenRoles.CUSTODIAN_ROLE)
        returns (bool)
    {
        if (!_isVerified(to)) revert ReceiverNotVerified(to);
        uint256 available = availableBalanceOf(from);
        if (amount > available) {
            uint256 frozen = frozenBalanceOf[from];
            uint256 release = amount - available > frozen ? frozen : amount - available;
            frozenBalanceOf[from] = frozen - release;
            emit TokensUnfrozen(_msgSender(), from, release);
        }
        _forcing = true;
        _transfer(from, to, amount);
        return true;
    }

    // ---- compliance ----

    function setCompliance(address compliance_) external onlyRole(TokenRoles.GOVERNANCE_ROLE) {
        _setCompliance(_msgSender(), compliance_);
    }

    function addComplianceModule(address module, bytes calldata params)
        external
        onlyRole(TokenRoles.GOVERNANCE_ROLE)
    {
        _requireCompliance().addModule(_msgSender(), module, params);
    }

    function setComplianceModuleParameters(address module, bytes calldata params)
        external
        onlyRole(TokenRoles.GOVERNANCE_ROLE)
    {
        _requireCompliance().setModuleParameters(_msgSender(), module, params);
    }

    function removeComplianceModule(address module) external onlyRole(TokenRoles.GOVERNANCE_ROLE) {
        _requireCompliance().removeModule(_msgSender(), module);
    }

    // ---- permit (on when the permit feature is attached) ----

    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        public
        override
        whenPermitEnabled
    {
        super.permit(owner, spender, value, deadline, v, r, s);
    }

    modifier whenPermitEnabled() {
        if (!_permitEnabled) revert PermitNotEnabled();
        _;
    }

    // ---- privileged movements for this token's own features ----

    function featureMint(address to, uint256 amount) external onlyFeature {
        _mint(to, amount);
    }

    function featureBurn(address from, uint256 amount) external onlyFeature {
        _burn(from, amount);
    }

    function featureTransfer(address from, address to, uint256 amount) external onlyFeature {
        _transfer(from, to, amount);
    }

    function isFeeExempt(address sender) external view returns (bool) {
        return isFeature[sender] || _inForcedHooks;
    }

    // ---- the one balance-change path ----

    function _update(address from, address to, uint256 value) internal override {
        bool forced = _forcing;
        if (forced) _forcing = false;
        else _checkUpdate(from, to, value);
        super._update(from, to, value);
        address sender = _msgSender();
        if (from == address(0)) emit MintCompleted(sender, to, value);
        else if (to == address(0)) emit BurnCompleted(sender, from, value);
        else if (forced) emit ForcedTransfer(sender, from, to, value);
        else emit TransferCompleted(sender, from, to, value);
        _afterUpdate(sender, from, to, value, forced);
    }

    function _checkUpdate(address from, address to, uint256 value) private view {
        if (paused) revert TokenPaused();
        if (from != address(0)) {
            if (isFrozen[from]) revert AccountFrozen(from);
            if (frozenBalanceOf[from] != 0) {
                uint256 available = availableBalanceOf(from);
                if (value > available) revert InsufficientUnfrozenBalance(from, available, value);
            }
        }
        if (to != address(0) && isFrozen[to]) revert AccountFrozen(to);
        if (compliance != address(0)) ICompliance(compliance).checkTransfer(address(this), from, to, value);
    }

    function _afterUpdate(address sender, address from, address to, uint256 value, bool forced) private {
        if (compliance != address(0)) {
            if (from == address(0)) ICompliance(compliance).created(to, value);
            else if (to == address(0)) ICompliance(compliance).destroyed(from, value);
            else ICompliance(compliance).transferred(from, to, value);
        }
        uint256 count = _hookedFeatures.length;
        if (count == 0) return;
        uint256 depth = _hookDepth;
        if (depth > 1) revert FeatureHookReentrancy(sender);
        bool wasForced = _inForcedHooks;
        _hookDepth = depth + 1;
        _inForcedHooks = forced;
        for (uint256 i = 0; i < count; i++) {
            ITokenFeature(_hookedFeatures[i]).onUpdate(sender, from, to, value);
        }
        _hookDepth = depth;
        _inForcedHooks = wasForced;
    }

    /// Registered with an identity in the system's identity registry (no claim topics required here: the token's
    /// identity-verification control, a compliance module, is what forced transfers skip).
    function _isVerified(address wallet) private view returns (bool) {
        address registry = ISystemIdentityRegistry(system).identityRegistry();
        return registry != address(0) && IIdentityRegistry(registry).isVerified(wallet, new uint256[](0));
    }

    function _setCompliance(address sender, address compliance_) private {
        compliance = compliance_;
        emit ComplianceSet(sender, compliance_);
    }

    function _requireCompliance() private view returns (ICompliance) {
        if (compliance == address(0)) revert NoCompliance();
        return ICompliance(compliance);
    }

    function _checkBatch(uint256 accounts, uint256 amounts) private pure {
        if (accounts != amounts) revert LengthMismatch(accounts, amounts);
        if (accounts == 0) revert EmptyBatch();
    }
}
