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
/// While it is open, an account it names (a party, a recipient or the creator) may hand its place to a successor in
/// two steps (`proposeHandover` by the account, `acceptHandover` by the successor, as OpenZeppelin's Ownable2Step
/// does): the successor sends and receives the account's legs and takes its seats. The assets, amounts, cutoff and
/// hashlock do not change. No approval carries over: each party consented to legs between the accounts named then,
/// so after a handover every party approves again (the successor once it has granted its allowances).
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
    event XvPSettlementHandoverStarted(address indexed account, address indexed successor);
    event XvPSettlementHandedOver(address indexed previous, address indexed successor);

    error XvPSettlementNoFlows();
    error XvPSettlementInvalidFlow(uint256 index);
    error XvPSettlementCutoffInPast(uint256 cutoff);
    error XvPSettlementNotParty(address account);
    error XvPSettlementAlreadyExecuted();
    error XvPSettlementAlreadyCancelled();
    error XvPSettlementCutoffPassed(uint256 cutoff);
    error XvPSettlementNotApproved(address party);
    error XvPSettlementSecretInvalid();
    error XvPSettlementSuccessorInvolved(address successor);
    error XvPSettlementNotPendingSuccessor(address account, address caller);

    Flow[] private _flows;
    address[] private _parties;
    mapping(address party => bool) public approved;
    mapping(address account => bool) private _isParty;
    address public creator;
    uint64 public cutoff;
    bytes32 public hashlock;
    bool public executed;
    bool public cancelled;
    /// The successor an account proposed until it accepts (zero when none).
    mapping(address account => address successor) public pendingSuccessorOf;

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
        if (!_involved(msg.sender)) revert XvPSettlementNotParty(msg.sender);
        cancelled = true;
        emit XvPSettlementCancelled(msg.sender);
    }

    /// An account the settlement names proposes its successor (zero withdraws the proposal); it keeps its place until
    /// the successor accepts. The successor must not be named by the settlement already.
    function proposeHandover(address successor) external {
        _requireOpen();
        if (!_involved(msg.sender)) revert XvPSettlementNotParty(msg.sender);
        if (successor != address(0) && _involved(successor)) revert XvPSettlementSuccessorInvolved(successor);
        pendingSuccessorOf[msg.sender] = successor;
        emit XvPSettlementHandoverStarted(msg.sender, successor);
    }

    /// The proposed successor takes `account`'s place: its legs (as sender and recipient), its party seat and the
    /// creator's seat if it held it. Every party's approval is withdrawn: the legs it approved have changed.
    function acceptHandover(address account) external {
        _requireOpen();
        if (msg.sender != pendingSuccessorOf[account]) revert XvPSettlementNotPendingSuccessor(account, msg.sender);
        if (_involved(msg.sender)) revert XvPSettlementSuccessorInvolved(msg.sender);
        delete pendingSuccessorOf[account];
        for (uint256 i = 0; i < _flows.length; i++) {
            if (_flows[i].from == account) _flows[i].from = msg.sender;
            if (_flows[i].to == account) _flows[i].to = msg.sender;
        }
        for (uint256 i = 0; i < _parties.length; i++) {
            delete approved[_parties[i]];
            if (_parties[i] == account) _parties[i] = msg.sender;
        }
        if (_isParty[account]) {
            delete _isParty[account];
            _isParty[msg.sender] = true;
        }
        if (creator == account) creator = msg.sender;
        emit XvPSettlementHandedOver(account, msg.sender);
    }

    function flows() external view returns (Flow[] memory) {
        return _flows;
    }

    function parties() external view returns (address[] memory) {
        return _parties;
    }

    /// 2: an account's place moves in two steps (proposeHandover, acceptHandover).
    function version() external pure returns (uint256) {
        return 2;
    }

    function _receives(address account) private view returns (bool) {
        for (uint256 i = 0; i < _flows.length; i++) {
            if (_flows[i].to == account) return true;
        }
        return false;
    }

    /// Whether the settlement names `account`: a party, a recipient or the creator.
    function _involved(address account) private view returns (bool) {
        return _isParty[account] || account == creator || _receives(account);
    }

    function _requireOpen() private view {
        if (executed) revert XvPSettlementAlreadyExecuted();
        if (cancelled) revert XvPSettlementAlreadyCancelled();
        if (block.timestamp > cutoff) revert XvPSettlementCutoffPassed(cutoff);
    }
}
