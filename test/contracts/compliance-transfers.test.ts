// Transfer controls: time-lock-v2 (lots unlocking over time) and transfer-approval-v2 (one-use approvals).
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ComplianceFixture,
  encodeParams,
  expectRefusal,
  expectRevert,
  type ModuleName,
  setupCompliance,
} from "./compliance-fixture.ts";

const HOUR = 3600;

describe("compliance transfer modules", () => {
  let f: ComplianceFixture;
  let approver: Address;
  let alice: Address;
  let bob: Address;
  let carol: Address;

  beforeAll(async () => {
    f = await setupCompliance();
    [approver, alice, bob, carol] = f.chain.accounts;
  });
  afterAll(async () => {
    await f?.chain.stop();
  });

  describe("time-lock-v2", () => {
    const locked = (token: Address, holder: Address) =>
      f.read<bigint>(f.modules.TimeLockModule, "TimeLockModule", "lockedBalanceOf", [token, holder]);
    const unlocked = (token: Address, holder: Address) =>
      f.read<bigint>(f.modules.TimeLockModule, "TimeLockModule", "unlockedBalanceOf", [token, holder]);

    it("locks received tokens for the duration, lot by lot", async () => {
      const token = await f.newToken();
      await f.addModule(token, "TimeLockModule", encodeParams.timeLock(BigInt(HOUR)));
      await f.mint(token, alice, 100n);
      await expectRefusal(f, f.transfer(token, 1, bob, 1n), "TimeLockModule", "amount exceeds unlocked balance 0");
      await f.increaseTime(HOUR / 2);
      await f.mint(token, alice, 50n);
      expect([await locked(token, alice), await unlocked(token, alice)]).toEqual([150n, 0n]);

      await f.increaseTime(HOUR / 2);
      expect([await locked(token, alice), await unlocked(token, alice)]).toEqual([50n, 100n]);
      await expectRefusal(f, f.transfer(token, 1, bob, 101n), "TimeLockModule", "amount exceeds unlocked balance 100");
      await f.transfer(token, 1, bob, 100n);
      // What Bob received is locked for him in turn.
      await expectRefusal(f, f.transfer(token, 2, carol, 1n), "TimeLockModule", "amount exceeds unlocked balance 0");
      expect(await f.read(f.engine, "Compliance", "canTransfer", [token, bob, carol, 1n])).toEqual([
        false,
        f.modules.TimeLockModule,
        "time-lock-v2",
        "amount exceeds unlocked balance 0",
      ]);

      await f.increaseTime(HOUR / 2);
      expect(await unlocked(token, alice)).toBe(50n);
      await f.transfer(token, 1, carol, 50n);
      expect(await f.balanceOf(token, carol)).toBe(50n);
    });

    it("never refuses burns, which may take locked tokens", async () => {
      const token = await f.newToken();
      await f.addModule(token, "TimeLockModule", encodeParams.timeLock(BigInt(HOUR)));
      await f.mint(token, alice, 100n);
      await f.burn(token, alice, 60n);
      expect([await f.balanceOf(token, alice), await locked(token, alice), await unlocked(token, alice)]).toEqual([
        40n,
        100n,
        0n,
      ]);
      await f.increaseTime(HOUR);
      await f.transfer(token, 1, bob, 40n);
      expect(await f.balanceOf(token, bob)).toBe(40n);
    });

    it("applies a new duration to existing lots, and validates it", async () => {
      const token = await f.newToken();
      await expectRevert(f.addModule(token, "TimeLockModule", encodeParams.timeLock(0n)), "ZeroLockDuration");
      await f.addModule(token, "TimeLockModule", encodeParams.timeLock(BigInt(HOUR)));
      await f.mint(token, alice, 10n);
      await f.setParams(token, "TimeLockModule", encodeParams.timeLock(60n));
      await f.increaseTime(61);
      await f.transfer(token, 1, bob, 10n);
      expect(await f.read(f.modules.TimeLockModule, "TimeLockModule", "lockDurationOf", [token])).toBe(60n);
    });

    it("keeps at most MAX_LOTS live lots by merging the oldest into the next (longer lock)", async () => {
      const token = await f.newToken();
      expect(await f.read(f.modules.TimeLockModule, "TimeLockModule", "MAX_LOTS")).toBe(64n);
      await f.addModule(token, "TimeLockModule", encodeParams.timeLock(1000n));
      // 65 receipts, one second apart: the first (at base) merges into the second (base + 1).
      const { testClient, publicClient } = f.chain;
      const base = (await publicClient.getBlock()).timestamp + 10n;
      for (let i = 0n; i < 65n; i++) {
        await testClient.setNextBlockTimestamp({ timestamp: base + i });
        await f.mint(token, alice, 1n);
      }
      const lockedAt = async (timestamp: bigint) => {
        // A block at exactly `timestamp` (a 0 mint to Bob adds no lot); views then read that block.
        await testClient.setNextBlockTimestamp({ timestamp });
        await f.mint(token, bob, 0n);
        return locked(token, alice);
      };
      // At base + 1000 only the first receipt would have unlocked, but it now shares the second lot's time.
      expect(await lockedAt(base + 1000n)).toBe(65n);
      expect(await lockedAt(base + 1001n)).toBe(63n);
      expect(await lockedAt(base + 1002n)).toBe(62n);
    });
  });

  describe.each<ModuleName>(["TransferApprovalModule", "LegacyTransferApprovalModule"])("%s", (name) => {
    const approve = (from: number, token: Address, sender: Address, to: Address, amount: bigint) =>
      f.write(from, f.modules[name], name, "approveTransfer", [token, sender, to, amount]);

    it("lets a transfer through once per approval, and not mints or burns", async () => {
      const token = await f.newToken();
      await f.addModule(token, name, encodeParams.transferApproval([approver], 0n));
      await f.mint(token, alice, 100n);
      await expectRefusal(f, f.transfer(token, 1, bob, 10n), name, "transfer not approved");
      await expectRevert(approve(1, token, alice, bob, 10n), "NotApprover", [token, alice]);

      const hash = await approve(0, token, alice, bob, 10n);
      expect((await f.events(hash, name, "TransferApproved")).map((e) => e.args)).toEqual([
        { sender: approver, token, from: alice, to: bob, amount: 10n, expiresAt: 0n },
      ]);
      expect(await f.read(f.modules[name], name, "approvalOf", [token, alice, bob, 10n])).toEqual([true, 0n]);
      await expectRevert(approve(0, token, alice, bob, 10n), "TransferAlreadyApproved", [token, alice, bob, 10n]);
      // The approval is for exactly this amount.
      await expectRefusal(f, f.transfer(token, 1, bob, 9n), name, "transfer not approved");
      const transfer = await f.transfer(token, 1, bob, 10n);
      expect((await f.events(transfer, name, "TransferApprovalConsumed")).map((e) => e.args)).toEqual([
        { token, from: alice, to: bob, amount: 10n },
      ]);
      expect(await f.read(f.modules[name], name, "approvalOf", [token, alice, bob, 10n])).toEqual([false, 0n]);
      await expectRefusal(f, f.transfer(token, 1, bob, 10n), name, "transfer not approved");
      await f.burn(token, bob, 10n);
      expect([await f.balanceOf(token, alice), await f.balanceOf(token, bob)]).toEqual([90n, 0n]);
    });

    it("revokes approvals and lets them expire", async () => {
      const token = await f.newToken();
      await f.addModule(token, name, encodeParams.transferApproval([approver, carol], BigInt(HOUR)));
      await f.mint(token, alice, 100n);
      await approve(3, token, alice, bob, 5n);
      const revoke = await f.write(0, f.modules[name], name, "revokeTransferApproval", [token, alice, bob, 5n]);
      expect((await f.events(revoke, name, "TransferApprovalRevoked")).map((e) => e.args)).toEqual([
        { sender: approver, token, from: alice, to: bob, amount: 5n },
      ]);
      await expectRevert(
        f.write(0, f.modules[name], name, "revokeTransferApproval", [token, alice, bob, 5n]),
        "TransferApprovalNotFound",
        [token, alice, bob, 5n],
      );
      await expectRefusal(f, f.transfer(token, 1, bob, 5n), name, "transfer not approved");

      const hash = await approve(0, token, alice, bob, 5n);
      const { timestamp } = await f.chain.publicClient.getBlock();
      expect((await f.events(hash, name, "TransferApproved"))[0].args).toMatchObject({ expiresAt: timestamp + 3600n });
      await f.increaseTime(HOUR);
      await expectRefusal(f, f.transfer(token, 1, bob, 5n), name, "transfer approval expired");
      await approve(0, token, alice, bob, 5n); // an expired approval may be renewed
      await f.transfer(token, 1, bob, 5n);
      expect(await f.balanceOf(token, bob)).toBe(5n);
    });

    it("keeps approvals across parameter updates, drops them on removal, and validates approvers", async () => {
      const token = await f.newToken();
      await expectRevert(f.addModule(token, name, encodeParams.transferApproval([], 0n)), "EmptyList");
      const many = Array.from({ length: 33 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}` as Address);
      await expectRevert(f.addModule(token, name, encodeParams.transferApproval(many, 0n)), "TooManyEntries", [
        33n,
        32n,
      ]);
      await f.addModule(token, name, encodeParams.transferApproval([approver], 0n));
      await expectRevert(
        approve(0, token, alice, "0x0000000000000000000000000000000000000000", 1n),
        "ZeroAddressParty",
      );
      await f.mint(token, alice, 10n);
      await approve(0, token, alice, bob, 1n);
      await f.setParams(token, name, encodeParams.transferApproval([carol], 0n));
      await expectRevert(approve(0, token, alice, bob, 2n), "NotApprover", [token, approver]);
      await f.transfer(token, 1, bob, 1n);

      await approve(3, token, alice, bob, 1n);
      await f.write(0, token, "MockComplianceToken", "removeModule", [f.modules[name]]);
      expect(await f.read(f.modules[name], name, "isApprover", [token, carol])).toBe(false);
      await f.addModule(token, name, encodeParams.transferApproval([carol], 0n));
      await expectRefusal(f, f.transfer(token, 1, bob, 1n), name, "transfer not approved");
    });
  });
});
