// The platform's smart wallets on a real EntryPoint v0.8: a 2-of-3 weighted multisig (weights 1, 1, 2; threshold 2)
// deployed counterfactually, managed through its own user operations, gas sponsored by the SponsoringPaymaster.
import {
  type Abi,
  type Address,
  concat,
  decodeErrorResult,
  encodeErrorResult,
  encodeFunctionData,
  type Hex,
  keccak256,
  maxUint64,
  parseEther,
  slice,
  toHex,
  zeroAddress,
} from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EIP170_LIMIT, expectRevert } from "../support/chain.ts";
import { type SmartWalletFixture, startSmartWalletFixture, type WalletConfig } from "./smart-wallet-fixture.ts";

const signer = (name: string) => privateKeyToAccount(keccak256(toHex(name)));
const [alice, bob, carol, dave, mallory] = ["alice", "bob", "carol", "dave", "mallory"].map(signer);
const CONFIG: WalletConfig = {
  signers: [alice.address, bob.address, carol.address],
  weights: [1n, 1n, 2n],
  threshold: 2n,
  salt: 0n,
};

let f: SmartWalletFixture;
let token: Address;
let wallet: Address;
let recipient: Address;
let erc20: Abi;

const read = <T>(address: Address, abi: Abi, fn: string, args: readonly unknown[] = []) =>
  f.read<T>(address, abi, fn, args);
const tokenBalance = (account: Address) => read<bigint>(token, erc20, "balanceOf", [account]);
const ethBalance = (account: Address) => f.chain.publicClient.getBalance({ address: account });
const transferData = (amount: bigint) =>
  encodeFunctionData({ abi: erc20, functionName: "transfer", args: [recipient, amount] });
/** callData: the account calls `token.transfer(recipient, amount)`. */
const transfer = (amount: bigint) =>
  encodeFunctionData({ abi: f.accountAbi, functionName: "execute", args: [token, 0n, transferData(amount)] });
/** callData: the account calls one of its own management functions (through execute, as a wallet SDK would). */
const selfCall = (functionName: string, args: readonly unknown[]) =>
  encodeFunctionData({
    abi: f.accountAbi,
    functionName: "execute",
    args: [wallet, 0n, encodeFunctionData({ abi: f.accountAbi, functionName, args })],
  });
/** Simulates a call from `from` (the wallet itself, by default) to the wallet. */
const callWallet = (functionName: string, args: readonly unknown[], from: Address = wallet) =>
  f.chain.publicClient.simulateContract({ account: from, address: wallet, abi: f.accountAbi, functionName, args });
const fund = async (to: Address, ether: string) => {
  const hash = await f.chain.wallets[0].sendTransaction({ to, value: parseEther(ether) });
  await f.chain.publicClient.waitForTransactionReceipt({ hash });
};

beforeAll(async () => {
  f = await startSmartWalletFixture();
  erc20 = f.chain.abi("MockERC20");
  recipient = f.chain.accounts[3];
  token = await f.chain.deploy("MockERC20", ["Euro Deposit", "EURD", 2]);
  wallet = await read<Address>(f.factory, f.factoryAbi, "getAddress", Object.values(CONFIG));
  await f.chain.write(0, token, erc20, "mint", [wallet, 10_000n]);
  await f.chain.write(0, f.paymaster, f.paymasterAbi, "setSponsored", [wallet, true]);
  await fund(wallet, "1");
}, 240_000); // a cold solc-js build of contracts/ takes 20-30 s
afterAll(() => f?.chain.stop());

describe("deployment", () => {
  it("keeps the account, factory and paymaster under EIP-170", async () => {
    const implementation = await read<Address>(f.factory, f.factoryAbi, "accountImplementation");
    for (const [name, address] of Object.entries({ implementation, factory: f.factory, paymaster: f.paymaster })) {
      const code = await f.chain.publicClient.getCode({ address });
      expect((code!.length - 2) / 2, name).toBeLessThan(EIP170_LIMIT);
    }
  });

  it("deploys at the counterfactual address through the first operation, which runs on the weight-2 signature", async () => {
    expect(await f.chain.publicClient.getCode({ address: wallet })).toBeUndefined();
    const ethBefore = await ethBalance(wallet);
    const { userOpHash, receipt } = await f.handle({
      sender: wallet,
      deploy: CONFIG,
      callData: transfer(100n),
      signers: [carol],
      sponsored: true,
    });

    expect(f.events(receipt, "AccountCreated", f.factory)).toEqual([{ account: wallet, ...CONFIG }]);
    expect(f.events(receipt, "SignerAdded", wallet)).toEqual([
      { signer: alice.address, weight: 1n },
      { signer: bob.address, weight: 1n },
      { signer: carol.address, weight: 2n },
    ]);
    expect(f.events(receipt, "ThresholdChanged", wallet)).toEqual([{ oldThreshold: 0n, newThreshold: 2n }]);
    expect(f.events(receipt, "UserOperationEvent")).toMatchObject([
      { userOpHash, sender: wallet, paymaster: f.paymaster, success: true },
    ]);
    expect(await tokenBalance(recipient)).toBe(100n);
    // Sponsored: the wallet paid nothing, neither from its balance nor from a deposit at the EntryPoint.
    expect(await ethBalance(wallet)).toBe(ethBefore);
    expect(await read(wallet, f.accountAbi, "getDeposit")).toBe(0n);

    expect(await read(wallet, f.accountAbi, "signers")).toEqual([CONFIG.signers, CONFIG.weights]);
    expect(await read(wallet, f.accountAbi, "threshold")).toBe(2n);
    expect(await read(wallet, f.accountAbi, "totalWeight")).toBe(4n);
    expect(await read(wallet, f.accountAbi, "entryPoint")).toBe(f.entryPoint);
  });

  it("createAccount is idempotent and the address depends on the whole configuration", async () => {
    const args = Object.values(CONFIG);
    const { result } = await f.chain.publicClient.simulateContract({
      address: f.factory,
      abi: f.factoryAbi,
      functionName: "createAccount",
      args,
    });
    expect(result).toBe(wallet);
    const hash = await f.chain.write(0, f.factory, f.factoryAbi, "createAccount", args);
    const receipt = await f.chain.publicClient.getTransactionReceipt({ hash });
    expect(f.events(receipt, "AccountCreated")).toEqual([]);
    const other = await read(f.factory, f.factoryAbi, "getAddress", [CONFIG.signers, CONFIG.weights, 3n, 0n]);
    expect(other).not.toBe(wallet);
  });

  it("cannot be initialised twice, nor its implementation at all", async () => {
    await expectRevert(callWallet("initialize", [[dave.address], [1n], 1n]), "InvalidInitialization");
    const implementation = await read<Address>(f.factory, f.factoryAbi, "accountImplementation");
    await expectRevert(
      f.chain.publicClient.simulateContract({
        address: implementation,
        abi: f.accountAbi,
        functionName: "initialize",
        args: [[dave.address], [1n], 1n],
      }),
      "InvalidInitialization",
    );
  });
});

describe("weighted validation", () => {
  it("fails one weight-1 signature with SIG_VALIDATION_FAILED (AA24), not a revert", async () => {
    await expectRevert(
      f.handle({ sender: wallet, callData: transfer(1n), signers: [alice], sponsored: true }),
      "FailedOp",
      [0n, "AA24 signature error"],
    );
  });

  it("passes two weight-1 signatures and runs executeBatch", async () => {
    const before = await tokenBalance(recipient);
    const calls = [1n, 2n].map((amount) => ({ target: token, value: 0n, data: transferData(amount) }));
    const { receipt } = await f.handle({
      sender: wallet,
      callData: encodeFunctionData({ abi: f.accountAbi, functionName: "executeBatch", args: [calls] }),
      signers: [bob, alice],
      sponsored: true,
    });
    expect(f.events(receipt, "UserOperationEvent")).toMatchObject([{ success: true }]);
    expect(await tokenBalance(recipient)).toBe(before + 3n);
  });

  it("signatureWeight gives the weight a packed set reaches, 0 for any malformed packing", async () => {
    const hash = keccak256(toHex("an approval"));
    const weight = (signatures: Hex) => read<bigint>(wallet, f.accountAbi, "signatureWeight", [hash, signatures]);
    expect(await weight(await f.pack(hash, [alice]))).toBe(1n);
    expect(await weight(await f.pack(hash, [alice, bob]))).toBe(2n);
    expect(await weight(await f.pack(hash, [carol, alice]))).toBe(3n);
    expect(await weight(await f.pack(hash, [alice, bob, carol]))).toBe(4n);

    const sorted = await f.pack(hash, [alice, bob]);
    const [first, second] = [slice(sorted, 0, 65), slice(sorted, 65)];
    expect(await weight(concat([second, first])), "descending order").toBe(0n);
    expect(await weight(concat([first, first])), "a signer twice").toBe(0n);
    expect(await weight(await f.pack(hash, [alice, mallory])), "a non-signer").toBe(0n);
    expect(await weight(slice(first, 0, 64)), "64 bytes").toBe(0n);
    expect(await weight(concat([first, "0x00"])), "66 bytes").toBe(0n);
    expect(await weight("0x"), "empty").toBe(0n);
    expect(await weight(`0x${"00".repeat(65)}`), "zeroes").toBe(0n);
  });
});

describe("management through user operations", () => {
  it("adds, reweights and removes a signer and changes the threshold, each announced", async () => {
    const op = (callData: Hex, signers = [carol]) => f.handle({ sender: wallet, callData, signers, sponsored: true });

    let { receipt } = await op(selfCall("addSigner", [dave.address, 3n]));
    expect(f.events(receipt, "SignerAdded", wallet)).toEqual([{ signer: dave.address, weight: 3n }]);
    // The EntryPoint may also call a management function directly (callData without execute).
    ({ receipt } = await op(
      encodeFunctionData({ abi: f.accountAbi, functionName: "setWeight", args: [dave.address, 1n] }),
    ));
    expect(f.events(receipt, "WeightChanged", wallet)).toEqual([
      { signer: dave.address, oldWeight: 3n, newWeight: 1n },
    ]);
    ({ receipt } = await op(selfCall("setThreshold", [3n])));
    expect(f.events(receipt, "ThresholdChanged", wallet)).toEqual([{ oldThreshold: 2n, newThreshold: 3n }]);

    // Threshold 3: carol (2) alone no longer validates; carol and dave (2 + 1) do.
    await expectRevert(op(selfCall("removeSigner", [dave.address])), "FailedOp", [0n, "AA24 signature error"]);
    ({ receipt } = await op(selfCall("setThreshold", [2n]), [carol, dave]));
    expect(f.events(receipt, "ThresholdChanged", wallet)).toEqual([{ oldThreshold: 3n, newThreshold: 2n }]);
    ({ receipt } = await op(selfCall("removeSigner", [dave.address])));
    expect(f.events(receipt, "SignerRemoved", wallet)).toEqual([{ signer: dave.address }]);

    expect(await read(wallet, f.accountAbi, "signers")).toEqual([CONFIG.signers, CONFIG.weights]);
    expect(await read(wallet, f.accountAbi, "weightOf", [dave.address])).toBe(0n);
  });

  it("fails an operation setting an unreachable threshold: success=false, ThresholdUnreachable as the reason", async () => {
    const { userOpHash, receipt } = await f.handle({
      sender: wallet,
      callData: selfCall("setThreshold", [5n]),
      signers: [carol],
      sponsored: true,
    });
    expect(f.events(receipt, "UserOperationEvent")).toMatchObject([{ userOpHash, success: false }]);
    const [{ revertReason }] = f.events(receipt, "UserOperationRevertReason");
    expect(decodeErrorResult({ abi: f.accountAbi, data: revertReason as Hex })).toMatchObject({
      errorName: "ThresholdUnreachable",
      args: [5n, 4n],
    });
    expect(f.events(receipt, "ThresholdChanged")).toEqual([]);
    expect(await read(wallet, f.accountAbi, "threshold")).toBe(2n);
  });

  it("refuses impossible changes with custom errors", async () => {
    await expectRevert(callWallet("setThreshold", [0n]), "ThresholdZero");
    await expectRevert(callWallet("setThreshold", [5n]), "ThresholdUnreachable", [5n, 4n]);
    await expectRevert(callWallet("addSigner", [alice.address, 1n]), "SignerExists", [alice.address]);
    await expectRevert(callWallet("addSigner", [dave.address, 0n]), "WeightZero", [dave.address]);
    await expectRevert(callWallet("addSigner", [zeroAddress, 1n]), "SignerInvalid", [zeroAddress]);
    await expectRevert(callWallet("removeSigner", [dave.address]), "SignerUnknown", [dave.address]);
    await expectRevert(callWallet("setWeight", [dave.address, 1n]), "SignerUnknown", [dave.address]);
    await expectRevert(callWallet("setWeight", [carol.address, 0n]), "WeightZero", [carol.address]);
  });

  it("refuses a removal or a lower weight that leaves the threshold unreachable", async () => {
    // Threshold 4 = every weight: any removal or lower weight would make it unreachable.
    const raise = await f.handle({
      sender: wallet,
      callData: selfCall("setThreshold", [4n]),
      signers: [carol],
      sponsored: true,
    });
    expect(f.events(raise.receipt, "ThresholdChanged", wallet)).toEqual([{ oldThreshold: 2n, newThreshold: 4n }]);
    await expectRevert(callWallet("removeSigner", [alice.address]), "ThresholdUnreachable", [4n, 3n]);
    await expectRevert(callWallet("setWeight", [carol.address, 1n]), "ThresholdUnreachable", [4n, 3n]);
    await f.handle({
      sender: wallet,
      callData: selfCall("setThreshold", [2n]),
      signers: [alice, bob, carol],
      sponsored: true,
    });
    expect(await read(wallet, f.accountAbi, "threshold")).toBe(2n);
  });

  it("accepts the largest threshold when the weights reach it", async () => {
    const calls = [
      {
        target: wallet,
        value: 0n,
        data: encodeFunctionData({ abi: f.accountAbi, functionName: "addSigner", args: [dave.address, maxUint64] }),
      },
      {
        target: wallet,
        value: 0n,
        data: encodeFunctionData({ abi: f.accountAbi, functionName: "setThreshold", args: [maxUint64] }),
      },
    ];
    await expect(callWallet("executeBatch", [calls])).resolves.toBeDefined();
  });

  it("takes execute and management calls only from the EntryPoint or itself", async () => {
    const outsider = f.chain.accounts[2];
    await expectRevert(callWallet("setThreshold", [1n], outsider), "CallerNotEntryPointOrSelf", [outsider]);
    await expectRevert(callWallet("addSigner", [dave.address, 1n], outsider), "CallerNotEntryPointOrSelf", [outsider]);
    await expectRevert(callWallet("execute", [token, 0n, transferData(1n)], outsider), "CallerNotEntryPointOrSelf", [
      outsider,
    ]);
  });
});

describe("sponsoring paymaster", () => {
  const OTHER: WalletConfig = { ...CONFIG, salt: 1n };
  let other: Address;
  beforeAll(async () => {
    other = await read<Address>(f.factory, f.factoryAbi, "getAddress", Object.values(OTHER));
    await fund(other, "1");
  });

  it("refuses an account its owner has not sponsored; the account can still pay for itself", async () => {
    const input = { sender: other, deploy: OTHER, callData: "0x" as Hex, signers: [carol] };
    await expectRevert(f.handle({ ...input, sponsored: true }), "FailedOpWithRevert", [
      0n,
      "AA33 reverted",
      encodeErrorResult({ abi: f.paymasterAbi, errorName: "AccountNotSponsored", args: [other] }),
    ]);
    const before = await ethBalance(other);
    const { receipt } = await f.handle(input);
    expect(f.events(receipt, "UserOperationEvent")).toMatchObject([
      { sender: other, paymaster: zeroAddress, success: true },
    ]);
    expect(await ethBalance(other)).toBeLessThan(before);
  });

  it("lets only its owner change sponsorship, announced by SponsorshipChanged", async () => {
    const hash = await f.chain.write(0, f.paymaster, f.paymasterAbi, "setSponsored", [other, true]);
    const receipt = await f.chain.publicClient.getTransactionReceipt({ hash });
    expect(f.events(receipt, "SponsorshipChanged", f.paymaster)).toEqual([{ account: other, sponsored: true }]);
    expect(await read(f.paymaster, f.paymasterAbi, "isSponsored", [other])).toBe(true);
    await expectRevert(
      f.chain.write(2, f.paymaster, f.paymasterAbi, "setSponsored", [other, false]),
      "OwnableUnauthorizedAccount",
      [f.chain.accounts[2]],
    );
  });

  it("manages its deposit and stake at the EntryPoint", async () => {
    const deposit = () => read<bigint>(f.paymaster, f.paymasterAbi, "getDeposit");
    const before = await deposit();
    const to = f.chain.accounts[3];
    const ethBefore = await ethBalance(to);
    await f.chain.write(0, f.paymaster, f.paymasterAbi, "withdrawTo", [to, parseEther("1")]);
    expect(await deposit()).toBe(before - parseEther("1"));
    expect(await ethBalance(to)).toBe(ethBefore + parseEther("1"));
    await expectRevert(
      f.chain.write(2, f.paymaster, f.paymasterAbi, "withdrawTo", [f.chain.accounts[2], 1n]),
      "OwnableUnauthorizedAccount",
      [f.chain.accounts[2]],
    );

    const stake = await f.chain.wallets[0].writeContract({
      address: f.paymaster,
      abi: f.paymasterAbi,
      functionName: "addStake",
      args: [60],
      value: parseEther("1"),
    });
    await f.chain.publicClient.waitForTransactionReceipt({ hash: stake });
    const info = await read<{ staked: boolean; stake: bigint }>(
      f.entryPoint,
      entryPoint08Abi as Abi,
      "getDepositInfo",
      [f.paymaster],
    );
    expect(info).toMatchObject({ staked: true, stake: parseEther("1") });
    await f.chain.write(0, f.paymaster, f.paymasterAbi, "unlockStake");
  });
});
