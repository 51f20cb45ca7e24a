// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {ComplianceModuleBase} from "./ComplianceModuleBase.sol";

/// @notice time-lock-v2: tokens received (minted or transferred in) stay locked for lockDuration
/// seconds. params: abi.encode(uint64 lockDuration) (> 0).
/// Each receipt is a lot stamped with its block time; a lot unlocks at receivedAt + lockDuration
/// (the current duration, so a parameter change applies to existing lots). A transfer may only
/// spend balance - locked. Mints and burns are never refused (a burn may take locked tokens; the
/// holder's unlocked balance is then 0 until enough lots expire). Self-transfers create no lot.
/// At most MAX_LOTS live lots per holder: beyond that the oldest lot merges into the next one,
/// which only lengthens its lock.
contract TimeLockModule is ComplianceModuleBase {
    uint256 public constant MAX_LOTS = 64;

    struct Lot {
        uint192 amount;
        uint64 receivedAt;
    }

    struct Lots {
        uint128 head;
        uint128 tail;
        mapping(uint256 index => Lot) items;
    }

    mapping(address token => uint64) public lockDurationOf;
    mapping(bytes32 key => Lots) private _lots;

    error ZeroLockDuration();

    function typeId() public pure virtual override returns (string memory) {
        return "time-lock-v2";
    }

    function check(address token, address from, address to, uint256 amount)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (from == address(0) || to == address(0)) return (true, "");
        uint256 unlocked = unlockedBalanceOf(token, from);
        if (amount > unlocked) {
            return (false, string.concat("amount exceeds unlocked balance ", Strings.toString(unlocked)));
        }
        return (true, "");
    }

    /// Sum of the holder's lots that are still locked.
    function lockedBalanceOf(address token, address holder) public view returns (uint256 locked) {
        Lots storage lots = _lots[_holderKey(token, holder)];
        uint256 duration = lockDurationOf[token];
        for (uint256 i = lots.tail; i > lots.head; i--) {
            Lot storage lot = lots.items[i - 1];
            if (uint256(lot.receivedAt) + duration <= block.timestamp) break;
            locked += lot.amount;
        }
    }

    function unlockedBalanceOf(address token, address holder) public view returns (uint256) {
        uint256 balance = IERC20(token).balanceOf(holder);
        uint256 locked = lockedBalanceOf(token, holder);
        return balance > locked ? balance - locked : 0;
    }

    function _configure(address token, bytes calldata params) internal override {
        uint64 duration = abi.decode(params, (uint64));
        if (duration == 0) revert ZeroLockDuration();
        lockDurationOf[token] = duration;
    }

    function _clear(address token) internal override {
        delete lockDurationOf[token];
    }

    function _afterTransfer(address token, address from, address to, uint256 amount) internal override {
        if (to == address(0) || from == to || amount == 0) return;
        Lots storage lots = _lots[_holderKey(token, to)];
        uint64 now_ = uint64(block.timestamp);
        uint256 duration = lockDurationOf[token];
        uint128 head = lots.head;
        uint128 tail = lots.tail;
        if (tail > head && lots.items[tail - 1].receivedAt == now_) {
            lots.items[tail - 1].amount += SafeCast.toUint192(amount);
            return;
        }
        while (head < tail && uint256(lots.items[head].receivedAt) + duration <= block.timestamp) {
            delete lots.items[head];
            head++;
        }
        if (tail - head >= MAX_LOTS) {
            lots.items[head + 1].amount += lots.items[head].amount;
            delete lots.items[head];
            head++;
        }
        lots.items[tail] = Lot(SafeCast.toUint192(amount), now_);
        lots.head = head;
        lots.tail = tail + 1;
    }

    function _holderKey(address token, address holder) private view returns (bytes32) {
        return keccak256(abi.encode(_scope(token), holder));
    }
}
