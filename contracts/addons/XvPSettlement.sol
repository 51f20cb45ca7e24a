// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// @notice A multi-leg delivery-versus-payment settlement (a clone made by XvPSettlementFactory): every party
/// (the sender of an outgoing leg) approves after granting this contract an ERC-20 allowance for its legs; once all
/// have approved, before the cutoff, anyone who knows the hashlock's secret (when there is one) executes it and every
/// leg moves in one transaction, or none does. A cancelled, executed or expired settlement moves nothing more.
contract XvPSettlement is Initializable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    struct Flow {
        address asset;
        address from;
        address to;
        uint256 amount;
    }

    event XvPSettlementApproved(address indexed party);
    event XvPSettlementApprovalRevoked(address indexed party);
    /// `secret` is the hashlock's preimage (empty without a hashlock): the other chain of a cross-chain swap reads it.
    event XvPSettlementExecuted(address indexed executor, bytes secret);
    event XvPSettlementCancelled(address indexed by);

    error XvPSettlementNoFlows();
    error XvPSettlementInvalidFlow(uint256 index);
    error XvPSettlementCutoffInPast(uint256 cutoff);
    error XvPSettlementNotParty(address account);
    error XvPSettlementAlreadyExecuted();
    error XvPSettlementAlreadyCancelled();
    error XvPSettlementCutoffPassed(uint256 cutoff);
    error XvPSettlementNotApproved(address party);
    error XvPSettlementSecretInvalid();

    Flow[] private _flows;
    address[] private _parties;
    mapping(address party => bool) public approved;
    mapping(address account => bool) private _isParty;
    address public creator;
    uint64 public cutoff;
    bytes32 public hashlock;
    bool public executed;
    bool public cancelled;

    constructor() {
        _disableInitializers();
    }

    function initialize(Flow[] calldata flows_, uint64 cutoff_, bytes32 hashlock_, address creator_)
        external
        initializer
    {
        if (flows_.length == 0) revert XvPSettlementNoFlows();
        if (cutoff_ <= block.timestamp) revert XvPSettlementCutoffInPast(cutoff_);
        for (uint256 i = 0; i < flows_.length; i++) {
            Flow calldata flow = flows_[i];
            if (
                flow.asset == address(0) || flow.from == address(0) || flow.to == address(0) || flow.amount == 0
                    || flow.from == flow.to
            ) revert XvPSettlementInvalidFlow(i);
            _flows.push(flow);
            if (!_isParty[flow.from]) {
                _isParty[flow.from] = true;
                _parties.push(flow.from);
            }
        }
        cutoff = cutoff_;
        hashlock = hashlock_;
        creator = creator_;
    }

    /// The caller approves its outgoing legs (it must have granted the allowances before execution).
    function approve() external {
        _requireOpen();
        if (!_isParty[msg.sender]) revert XvPSettlementNotParty(msg.sender);
        approved[msg.sender] = true;
        emit XvPSettlementApproved(msg.sender);
    }

    function revokeApproval() external {
        _requireOpen();
        if (!_isParty[msg.sender]) revert XvPSettlementNotParty(msg.sender);
        approved[msg.sender] = false;
        emit XvPSettlementApprovalRevoked(msg.sender);
    }

    /// Every leg or none: a missing approval or allowance, a compliance refusal of a token, reverts them all.
    function execute(bytes calldata secret) external nonReentrant {
        _requireOpen();
        if (hashlock != bytes32(0) && keccak256(secret) != hashlock) revert XvPSettlementSecretInvalid();
        for (uint256 i = 0; i < _parties.length; i++) {
            if (!approved[_parties[i]]) revert XvPSettlementNotApproved(_parties[i]);
        }
        executed = true;
        for (uint256 i = 0; i < _flows.length; i++) {
            Flow storage flow = _flows[i];
            IERC20(flow.asset).safeTransferFrom(flow.from, flow.to, flow.amount);
        }
        emit XvPSettlementExecuted(msg.sender, secret);
    }

    /// A party or the creator withdraws the settlement before it is executed.
    function cancel() external {
        if (executed) revert XvPSettlementAlreadyExecuted();
        if (cancelled) revert XvPSettlementAlreadyCancelled();
        if (!_isParty[msg.sender] && msg.sender != creator && !_receives(msg.sender)) {
            revert XvPSettlementNotParty(msg.sender);
        }
        cancelled = true;
        emit XvPSettlementCancelled(msg.sender);
    }

    function flows() external view returns (Flow[] memory) {
        return _flows;
    }

    function parties() external view returns (address[] memory) {
        return _parties;
    }

    function version() external pure returns (uint256) {
        return 1;
    }

    function _receives(address account) private view returns (bool) {
        for (uint256 i = 0; i < _flows.length; i++) {
            if (_flows[i].to == account) return true;
        }
        return false;
    }

    function _requireOpen() private view {
        if (executed) revert XvPSettlementAlreadyExecuted();
        if (cancelled) revert XvPSettlementAlreadyCancelled();
        if (block.timestamp > cutoff) revert XvPSettlementCutoffPassed(cutoff);
    }
}
