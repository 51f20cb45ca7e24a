// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SystemAccessControlled} from "../SystemAccessControlled.sol";
import {SystemAccessRoles} from "../SystemAccessRoles.sol";
import {ContractProbe} from "./ContractProbe.sol";
import {ISystemManagedOracle} from "./ISystemManagedOracle.sol";

/// @notice ERC-20 contracts created outside the platform that a system tracks (the spec's external
/// tokens). Registration reads the token's metadata and detects its interfaces once, and the event
/// carries all of it.
contract ExternalTokenRegistry is SystemAccessControlled {
    /// Bits of `detectedInterfaces`.
    uint8 public constant INTERFACE_ERC20 = 1;
    uint8 public constant INTERFACE_ERC3643 = 2;
    uint8 public constant INTERFACE_SMART = 4;

    /// The spec's registration.blockingReason: 0 none (eligible), 1 no-code, 2 already-registered, 3 system-managed.
    enum BlockingReason {
        None,
        NoCode,
        AlreadyRegistered,
        SystemManaged
    }

    struct ExternalToken {
        string tokenType;
        string name;
        string symbol;
        uint8 decimals;
        uint8 detectedInterfaces;
        uint64 registeredAt;
        address registeredBy;
    }

    /// `detectedInterfaces` lists "ERC20", "ERC3643", "SMART" in that order, each when detected.
    /// `decimals` is 18 when the token has no decimals(). registeredAt = block timestamp.
    /// `totalSupply` and `paused` are the token's at registration (0 and false when it does not answer), the
    /// index's starting point before it follows the token's own Transfer, Paused and Unpaused events.
    event ExternalTokenRegistered(
        address indexed sender,
        address indexed token,
        string tokenType,
        string name,
        string symbol,
        uint8 decimals,
        string[] detectedInterfaces,
        uint256 registeredAt,
        uint256 totalSupply,
        bool paused
    );
    event ExternalTokenTypeUpdated(address indexed sender, address indexed token, string tokenType);
    event ExternalTokenUnregistered(address indexed sender, address indexed token);
    event SystemManagedOracleUpdated(address indexed sender, address indexed oracle);

    /// One error per spec blockingReason: no-code, already-registered, system-managed.
    error ExternalTokenNoCode(address token);
    error ExternalTokenAlreadyRegistered(address token);
    error ExternalTokenSystemManaged(address token);
    error ExternalTokenNotRegistered(address token);
    error EmptyTokenType();

    mapping(address token => ExternalToken) private _tokens;
    address[] private _tokenList;
    mapping(address token => uint256 indexPlusOne) private _indexOf;
    address public systemManagedOracle;

    constructor(address forwarder) SystemAccessControlled(forwarder) {}

    /// @param oracle Answers `isSystemManaged` (the System); address 0 until the system wires one.
    function initialize(address accessManager_, address oracle) external initializer {
        __SystemAccessControlled_init(accessManager_);
        _setOracle(oracle);
    }

    /// The API's queued registration call (`registerToken(tokenAddress, tokenType)`).
    function registerToken(address token, string calldata tokenType)
        external
        onlyRoleOrModule(SystemAccessRoles.TOKEN_MANAGER_ROLE)
    {
        BlockingReason reason = blockingReason(token);
        if (reason == BlockingReason.NoCode) revert ExternalTokenNoCode(token);
        if (reason == BlockingReason.AlreadyRegistered) revert ExternalTokenAlreadyRegistered(token);
        if (reason == BlockingReason.SystemManaged) revert ExternalTokenSystemManaged(token);
        if (bytes(tokenType).length == 0) revert EmptyTokenType();

        (bool hasDecimals, uint256 decimals) =
            ContractProbe.readUint(token, abi.encodeWithSelector(IERC20Metadata.decimals.selector));
        ExternalToken storage entry = _tokens[token];
        entry.tokenType = tokenType;
        entry.name = ContractProbe.readString(token, IERC20Metadata.name.selector);
        entry.symbol = ContractProbe.readString(token, IERC20Metadata.symbol.selector);
        entry.decimals = hasDecimals && decimals <= type(uint8).max ? uint8(decimals) : 18;
        entry.detectedInterfaces = detectInterfaces(token);
        entry.registeredAt = uint64(block.timestamp);
        entry.registeredBy = _msgSender();
        _tokenList.push(token);
        _indexOf[token] = _tokenList.length;
        _emitRegistered(token, entry);
    }

    function updateTokenType(address token, string calldata tokenType)
        external
        onlyRoleOrModule(SystemAccessRoles.TOKEN_MANAGER_ROLE)
    {
        if (!isRegistered(token)) revert ExternalTokenNotRegistered(token);
        if (bytes(tokenType).length == 0) revert EmptyTokenType();
        _tokens[token].tokenType = tokenType;
        emit ExternalTokenTypeUpdated(_msgSender(), token, tokenType);
    }

    function unregisterToken(address token) external onlyRoleOrModule(SystemAccessRoles.TOKEN_MANAGER_ROLE) {
        uint256 indexPlusOne = _indexOf[token];
        if (indexPlusOne == 0) revert ExternalTokenNotRegistered(token);
        address last = _tokenList[_tokenList.length - 1];
        _tokenList[indexPlusOne - 1] = last;
        _indexOf[last] = indexPlusOne;
        _tokenList.pop();
        delete _indexOf[token];
        delete _tokens[token];
        emit ExternalTokenUnregistered(_msgSender(), token);
    }

    function setSystemManagedOracle(address oracle)
        external
        onlyRoleOrModule(SystemAccessRoles.SYSTEM_MANAGER_ROLE)
    {
        _setOracle(oracle);
    }

    /// Why `token` cannot be registered now (None when it can): the live inspection's blockingReason.
    function blockingReason(address token) public view returns (BlockingReason) {
        if (token.code.length == 0) return BlockingReason.NoCode;
        if (isRegistered(token)) return BlockingReason.AlreadyRegistered;
        if (_isSystemManaged(token)) return BlockingReason.SystemManaged;
        return BlockingReason.None;
    }

    /// ERC20: ERC-165 IERC20, or totalSupply() and balanceOf() answer. ERC3643: identityRegistry(),
    /// compliance() and onchainID() answer. SMART: identityRegistry(), compliance() and the SMART-only
    /// complianceModules() (a dynamic array) answer.
    function detectInterfaces(address token) public view returns (uint8 detected) {
        if (token.code.length == 0) return 0;
        if (
            ContractProbe.supportsInterface(token, type(IERC20).interfaceId)
                || (
                    ContractProbe.answersWord(token, IERC20.totalSupply.selector)
                        && ContractProbe.answersWord(token, abi.encodeWithSelector(IERC20.balanceOf.selector, token))
                )
        ) detected |= INTERFACE_ERC20;
        bool regulated = ContractProbe.answersWord(token, bytes4(keccak256("identityRegistry()")))
            && ContractProbe.answersWord(token, bytes4(keccak256("compliance()")));
        if (regulated && ContractProbe.answersWord(token, bytes4(keccak256("onchainID()")))) {
            detected |= INTERFACE_ERC3643;
        }
        if (regulated && ContractProbe.answersDynamic(token, bytes4(keccak256("complianceModules()")))) {
            detected |= INTERFACE_SMART;
        }
    }

    function isRegistered(address token) public view returns (bool) {
        return _indexOf[token] != 0;
    }

    function externalToken(address token) external view returns (ExternalToken memory) {
        return _tokens[token];
    }

    function tokens() external view returns (address[] memory) {
        return _tokenList;
    }

    function interfaceNames(uint8 detected) public pure returns (string[] memory names) {
        uint256 count = (detected & INTERFACE_ERC20 != 0 ? 1 : 0) + (detected & INTERFACE_ERC3643 != 0 ? 1 : 0)
            + (detected & INTERFACE_SMART != 0 ? 1 : 0);
        names = new string[](count);
        uint256 i = 0;
        if (detected & INTERFACE_ERC20 != 0) names[i++] = "ERC20";
        if (detected & INTERFACE_ERC3643 != 0) names[i++] = "ERC3643";
        if (detected & INTERFACE_SMART != 0) names[i++] = "SMART";
    }

    function _isSystemManaged(address token) private view returns (bool) {
        if (token == address(this) || token == accessManager || token == systemManagedOracle) return true;
        if (systemManagedOracle == address(0)) return false;
        return ISystemManagedOracle(systemManagedOracle).isSystemManaged(token);
    }

    function _emitRegistered(address token, ExternalToken storage entry) private {
        (, uint256 supply) = ContractProbe.readUint(token, abi.encodeWithSelector(IERC20.totalSupply.selector));
        (bool answersPaused, uint256 paused) =
            ContractProbe.readUint(token, abi.encodeWithSelector(bytes4(keccak256("paused()"))));
        emit ExternalTokenRegistered(
            entry.registeredBy,
            token,
            entry.tokenType,
            entry.name,
            entry.symbol,
            entry.decimals,
            interfaceNames(entry.detectedInterfaces),
            entry.registeredAt,
            supply,
            answersPaused && paused == 1
        );
    }

    function _setOracle(address oracle) private {
        systemManagedOracle = oracle;
        emit SystemManagedOracleUpdated(_msgSender(), oracle);
    }
}
