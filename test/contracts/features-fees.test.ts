// The three fee features: fees in the token itself, fees only accounted, flat fees in another ERC-20.
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  encode,
  expectRevert,
  type FeatureId,
  ROLES,
  startTokenFixture,
  type TokenFixture,
  ZERO,
} from "./token-fixture.ts";

let f: TokenFixture;
let admin: Address;
let alice: Address;
let bob: Address;
let carol: Address;
let recipient: Address;

beforeAll(async () => {
  f = await startTokenFixture();
  [admin, alice, bob, carol, recipient] = f.chain.accounts;
});
afterAll(() => f?.chain.stop());

const tokenCall = (from: number, token: Address, fn: string, args: readonly unknown[] = []) =>
  f.write(from, token, f.tokenAbi, fn, args);
const sent = async (from: number, token: Address, fn: string, args: readonly unknown[] = []) =>
  f.receipt(await tokenCall(from, token, fn, args));
const featureCall = (from: number, id: FeatureId, feature: Address, fn: string, args: readonly unknown[] = []) =>
  f.write(from, feature, f.featureAbi(id), fn, args);
const balances = (token: Address, accounts: Address[]) =>
  Promise.all(accounts.map((account) => f.read<bigint>(token, f.tokenAbi, "balanceOf", [account])));

describe("transaction-fee", () => {
  let token: Address;
  let fee: Address;
  let history: Address;

  beforeAll(async () => {
    const created = await f.createToken({
      features: [
        { featureId: "transaction-fee", params: encode.transactionFee(100n, 200n, 50n, recipient) },
        { featureId: "historical-balances", params: "0x" },
      ],
    });
    token = created.token;
    fee = created.features["transaction-fee"];
    history = created.features["historical-balances"];
  });

  it("takes the mint fee from the minted amount", async () => {
    const receipt = await sent(0, token, "mint", [alice, 10_000n]);
    expect(await balances(token, [alice, recipient])).toEqual([9_900n, 100n]);
    expect(f.events(f.featureAbi("transaction-fee"), receipt, "TransactionFeeCollected")).toEqual([
      { sender: admin, payer: alice, recipient, from: ZERO, to: alice, amount: 10_000n, fee: 100n },
    ]);
    expect(f.events(f.tokenAbi, receipt, "TransferCompleted", token)).toEqual([
      { sender: fee, from: alice, to: recipient, amount: 100n },
    ]);
  });

  it("takes the transfer fee from what the receiver gets", async () => {
    const receipt = await sent(1, token, "transfer", [bob, 1_000n]);
    expect(await balances(token, [alice, bob, recipient])).toEqual([8_900n, 995n, 105n]);
    expect(f.events(f.featureAbi("transaction-fee"), receipt, "TransactionFeeCollected")).toEqual([
      { sender: alice, payer: bob, recipient, from: alice, to: bob, amount: 1_000n, fee: 5n },
    ]);
  });

  it("gives the burn fee's share of the burnt amount to the recipient", async () => {
    const receipt = await sent(0, token, "burn", [alice, 1_000n]);
    expect(await balances(token, [alice, recipient])).toEqual([7_900n, 125n]);
    expect(await f.read(token, f.tokenAbi, "totalSupply")).toBe(7_900n + 995n + 125n);
    expect(f.events(f.tokenAbi, receipt, "MintCompleted", token)).toEqual([
      { sender: fee, to: recipient, amount: 20n },
    ]);
  });

  it("charges nothing on forced transfers and on the recipient's own receipts", async () => {
    await f.verify(carol);
    const forced = await sent(0, token, "forcedTransfer", [alice, carol, 100n]);
    expect(f.events(f.featureAbi("transaction-fee"), forced, "TransactionFeeCollected")).toEqual([]);
    const toRecipient = await sent(1, token, "transfer", [recipient, 100n]);
    expect(f.events(f.featureAbi("transaction-fee"), toRecipient, "TransactionFeeCollected")).toEqual([]);
    expect(await balances(token, [alice, carol, recipient])).toEqual([7_700n, 100n, 225n]);
  });

  it("lets the other features observe the fee movement (historical balances)", async () => {
    await f.travel(5);
    const now = await f.now();
    const read = (account: Address) =>
      f.read<bigint>(history, f.featureAbi("historical-balances"), "balanceOfAt", [account, now - 1n]);
    expect([await read(alice), await read(bob), await read(recipient)]).toEqual([7_700n, 995n, 225n]);
  });

  it("changes its schedule by governance with an event carrying sender and parameters", async () => {
    const next = encode.transactionFee(0n, 0n, 1_000n, recipient);
    await expectRevert(
      featureCall(1, "transaction-fee", fee, "updateParameters", [next]),
      "AccessControlUnauthorizedAccount",
      [alice, ROLES.governance],
    );
    await expectRevert(
      featureCall(0, "transaction-fee", fee, "updateParameters", [encode.transactionFee(0n, 0n, 10_001n, recipient)]),
      "BpsTooHigh",
      ["transferFeeBps", 10_001n],
    );
    const receipt = await f.receipt(await featureCall(0, "transaction-fee", fee, "updateParameters", [next]));
    expect(f.events(f.featureAbi("transaction-fee"), receipt, "FeatureParametersUpdated")).toEqual([
      { sender: admin, token, featureId: "transaction-fee", params: next },
    ]);
    await tokenCall(1, token, "transfer", [bob, 1_000n]);
    expect(await balances(token, [bob, recipient])).toEqual([995n + 900n, 325n]);
  });
});

describe("transaction-fee-accounting", () => {
  it("records the same fees as owed without moving any token, and records settlements", async () => {
    const { token, features } = await f.createToken({
      features: [
        { featureId: "transaction-fee-accounting", params: encode.transactionFee(100n, 200n, 50n, recipient) },
      ],
    });
    const acc = features["transaction-fee-accounting"];
    const abi = f.featureAbi("transaction-fee-accounting");
    const minted = await sent(0, token, "mint", [alice, 10_000n]);
    expect(f.events(abi, minted, "TransactionFeeAccrued")).toEqual([
      { sender: admin, payer: alice, recipient, from: ZERO, to: alice, amount: 10_000n, fee: 100n },
    ]);
    await tokenCall(1, token, "transfer", [bob, 1_000n]);
    await tokenCall(0, token, "burn", [alice, 1_000n]);
    expect(await balances(token, [alice, bob, recipient])).toEqual([8_000n, 1_000n, 0n]);
    const owed = (account: Address) => f.read<bigint>(acc, abi, "feesOwed", [account]);
    expect([await owed(alice), await owed(bob), await f.read(acc, abi, "totalFeesOwed")]).toEqual([120n, 5n, 125n]);

    await expectRevert(
      featureCall(0, "transaction-fee-accounting", acc, "settleFees", [alice, 121n]),
      "SettlementExceedsOwed",
      [alice, 120n, 121n],
    );
    await expectRevert(
      featureCall(1, "transaction-fee-accounting", acc, "settleFees", [alice, 1n]),
      "AccessControlUnauthorizedAccount",
      [alice, ROLES.governance],
    );
    const settled = await f.receipt(
      await featureCall(0, "transaction-fee-accounting", acc, "settleFees", [alice, 120n]),
    );
    expect(f.events(abi, settled, "TransactionFeeSettled")).toEqual([
      { sender: admin, payer: alice, recipient, amount: 120n },
    ]);
    expect([await owed(alice), await f.read(acc, abi, "totalFeesOwed")]).toEqual([0n, 5n]);
  });
});

describe("external-transaction-fee", () => {
  it("pulls a flat fee in another ERC-20 from the sender of each operation", async () => {
    const erc20 = f.chain.abi("MockERC20");
    const feeToken = await f.deploy("MockERC20", ["Fee", "FEE", 18]);
    for (const account of [admin, alice]) await f.write(0, feeToken, erc20, "mint", [account, 1_000n]);
    const { token, features } = await f.createToken({
      features: [
        {
          featureId: "external-transaction-fee",
          params: encode.externalTransactionFee(feeToken, 5n, 7n, 3n, recipient),
        },
      ],
    });
    const ext = features["external-transaction-fee"];
    const abi = f.featureAbi("external-transaction-fee");
    await f.write(0, feeToken, erc20, "approve", [ext, 1_000n]);
    await f.write(1, feeToken, erc20, "approve", [ext, 1_000n]);
    const feeBalance = (account: Address) => f.read<bigint>(feeToken, erc20, "balanceOf", [account]);

    const minted = await sent(0, token, "mint", [alice, 100n]);
    expect(f.events(abi, minted, "ExternalTransactionFeeCharged")).toEqual([
      { sender: admin, feeToken, recipient, from: ZERO, to: alice, amount: 100n, fee: 5n },
    ]);
    await tokenCall(1, token, "transfer", [bob, 40n]);
    await tokenCall(0, token, "burn", [bob, 10n]);
    expect([await feeBalance(admin), await feeBalance(alice), await feeBalance(recipient)]).toEqual([988n, 997n, 15n]);
    expect(await balances(token, [alice, bob])).toEqual([60n, 30n]);

    // bob has neither fee tokens nor an allowance: his transfer is refused.
    await expectRevert(tokenCall(2, token, "transfer", [alice, 1n]), "ERC20InsufficientAllowance", [ext, 0n, 3n]);
    await expect(f.read(ext, abi, "parameters")).resolves.toBe(
      encode.externalTransactionFee(feeToken, 5n, 7n, 3n, recipient),
    );
  });
});
