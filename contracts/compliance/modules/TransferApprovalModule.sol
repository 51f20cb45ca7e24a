// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ListModuleBase} from "./ListModuleBase.sol";

/// @notice transfer-approval-v2: every transfer needs a prior approval of (from, to, amount) by one of
/// the token's approvers; the transfer consumes it. params: abi.encode(address[] approvers,
/// uint64 approvalValidity) (at least one approver; validity in seconds, 0 = approvals never expire).
/// Mints and burns are not checked. Approvals survive parameter updates and are dropped on removal.
contract TransferApprovalModule is ListModuleBase {
    uint256 public constant MAX_APPROVERS = 32;
    uint64 private constant NO_EXPIRY = type(uint64).max;

    mapping(address token => uint64) public approvalValidityOf;
    /// Expiry of an approval (NO_EXPIRY when it never expires; 0 = no approval).
    mapping(bytes32 key => uint64) private _approvals;

    event TransferApproved(
        address indexed sender, address indexed token, address indexed from, address to, uint256 amount, uint64 expiresAt
    );
    event TransferApprovalRevoked(
        address indexed sender, address indexed token, address indexed from, address to, uint256 amount
    );
    /// Emitted by the transfer that used the approval (the hook does not know who asked the token).
    event TransferApprovalConsumed(address indexed token, address indexed from, address indexed to, uint256 amount);

    error NotApprover(address token, address account);
    error ZeroAddressParty();
    error TransferAlreadyApproved(address token, address from, address to, uint256 amount);
    error TransferApprovalNotFound(address token, address from, address to, uint256 amount);

    function typeId() public pure virtual override returns (string memory) {
        return "transfer-approval-v2";
    }

    /// An approver allows one transfer of exactly `amount` from `from` to `to`.
    function approveTransfer(address token, address from, address to, uint256 amount) external {
        _requireApprover(token);
        if (from == address(0) || to == address(0)) revert ZeroAddressParty();
        bytes32 key = _approvalKey(token, from, to, amount);
        if (_isLive(_approvals[key])) revert TransferAlreadyApproved(token, from, to, amount);
        uint64 validity = approvalValidityOf[token];
        uint64 expiresAt = validity == 0 ? NO_EXPIRY : uint64(block.timestamp) + validity;
        _approvals[key] = expiresAt;
        emit TransferApproved(msg.sender, token, from, to, amount, expiresAt == NO_EXPIRY ? 0 : expiresAt);
    }

    function revokeTransferApproval(address token, address from, address to, uint256 amount) external {
        _requireApprover(token);
        bytes32 key = _approvalKey(token, from, to, amount);
        if (_approvals[key] == 0) revert TransferApprovalNotFound(token, from, to, amount);
        delete _approvals[key];
        emit TransferApprovalRevoked(msg.sender, token, from, to, amount);
    }

    /// Expiry of the approval: (true, 0) for one that never expires, (false, 0) when there is none.
    function approvalOf(address token, address from, address to, uint256 amount)
        external
        view
        returns (bool exists, uint64 expiresAt)
    {
        uint64 stored = _approvals[_approvalKey(token, from, to, amount)];
        return (stored != 0, stored == NO_EXPIRY ? 0 : stored);
    }

    function isApprover(address token, address account) public view returns (bool) {
        return isConfigured(token) && _hasAddress(_listScope(token), account);
    }

    function check(address token, address from, address to, uint256 amount)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (from == address(0) || to == address(0)) return (true, "");
        uint64 expiresAt = _approvals[_approvalKey(token, from, to, amount)];
        if (expiresAt == 0) return (false, "transfer not approved");
        if (!_isLive(expiresAt)) return (false, "transfer approval expired");
        return (true, "");
    }

    function _configure(address token, bytes calldata params) internal override {
        (address[] memory approvers, uint64 validity) = abi.decode(params, (address[], uint64));
        if (approvers.length > MAX_APPROVERS) revert TooManyEntries(approvers.length, MAX_APPROVERS);
        _storeAddresses(token, approvers, false);
        approvalValidityOf[token] = validity;
    }

    function _clear(address token) internal override {
        delete approvalValidityOf[token];
    }

    function _afterTransfer(address token, address from, address to, uint256 amount) internal override {
        if (from == address(0) || to == address(0)) return;
        bytes32 key = _approvalKey(token, from, to, amount);
        if (_approvals[key] == 0) return;
        delete _approvals[key];
        emit TransferApprovalConsumed(token, from, to, amount);
    }

    function _requireApprover(address token) private view {
        if (!isApprover(token, msg.sender)) revert NotApprover(token, msg.sender);
    }

    function _isLive(uint64 expiresAt) private view returns (bool) {
        return expiresAt != 0 && expiresAt > block.timestamp;
    }

    function _approvalKey(address token, address from, address to, uint256 amount) private view returns (bytes32) {
        return keccak256(abi.encode(_scope(token), from, to, amount));
    }
}
