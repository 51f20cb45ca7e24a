// The token on its own: supply, pause, freezes, forced transfer, metadata, documents, compliance wiring.
import { type Address, encodeFunctionData, type Hex, keccak256, stringToHex, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EIP170_LIMIT, expectRevert, ROLES, startTokenFixture, type TokenFixture, ZERO } from "./token-fixture.ts";

let f: TokenFixture;
let admin: Address;
let alice: Address;
let bob: Address;
let carol: Address;

beforeAll(async () => {
  f = await startTokenFixture();
  [admin, alice, bob, carol] = f.chain.accounts;
});
afterAll(() => f?.chain.stop());

const call = (from: number, address: Address, fn: string, args: readonly unknown[] = []) =>
  f.write(from, address, f.tokenAbi, fn, args);
const sent = async (from: number, address: Address, fn: string, args: readonly unknown[] = []) =>
  f.receipt(await call(from, address, fn, args));
const balance = (token: Address, account: Address) => f.read<bigint>(token, f.tokenAbi, "balanceOf", [account]);

describe("token creation", () => {
  it("keeps the original createToken: no features, no compliance, every role to the creator", async () => {
    const hash = await f.write(0, f.tokenFactory, f.chain.abi("TokenFactory"), "createToken", [
      "bond",
      "Plain",
      "PLN",
      6,
    ]);
    const receipt = await f.receipt(hash);
    const [created] = f.events(f.chain.abi("SystemFactory"), receipt, "TokenCreated");
    expect(created).toMatchObject({
      sender: admin,
      system: f.system,
      tokenFactory: f.tokenFactory,
      tokenType: "bond",
      name: "Plain",
      symbol: "PLN",
      decimals: 6,
      compliance: ZERO,
      featureIds: [],
      features: [],
    });
    expect(f.events(f.chain.abi("SystemFactory"), receipt, "FeatureAttached")).toEqual([]);
    const token = created.token as Address;
    expect(await f.read(token, f.tokenAbi, "decimals")).toBe(6);
    expect(await f.read(token, f.tokenAbi, "system")).toBe(f.system);
    for (const r of Object.values(ROLES)) expect(await f.read(token, f.tokenAbi, "hasRole", [r, admin])).toBe(true);
    expect(await f.read(token, f.tokenAbi, "features")).toEqual([]);
  });

  it("refuses a creator without the system's token manager role", async () => {
    await expectRevert(
      f.write(1, f.tokenFactory, f.chain.abi("TokenFactory"), "createToken", ["bond", "X", "X", 18]),
      "MissingTokenManagerRole",
      [alice],
    );
  });
});

describe("supply", () => {
  let token: Address;
  beforeAll(async () => {
    ({ token } = await f.createToken());
  });

  it("mints and batch-mints with MintCompleted carrying the sender", async () => {
    const one = await sent(0, token, "mint", [alice, 1000n]);
    expect(f.events(f.tokenAbi, one, "MintCompleted")).toEqual([{ sender: admin, to: alice, amount: 1000n }]);
    const batch = await sent(0, token, "batchMint", [
      [bob, carol],
      [200n, 300n],
    ]);
    expect(f.events(f.tokenAbi, batch, "MintCompleted")).toEqual([
      { sender: admin, to: bob, amount: 200n },
      { sender: admin, to: carol, amount: 300n },
    ]);
    expect(await f.read(token, f.tokenAbi, "totalSupply")).toBe(1500n);
  });

  it("refuses mints without the supply management role and malformed batches", async () => {
    await expectRevert(call(1, token, "mint", [alice, 1n]), "AccessControlUnauthorizedAccount", [alice, ROLES.supply]);
    await expectRevert(call(0, token, "batchMint", [[alice], [1n, 2n]]), "LengthMismatch", [1n, 2n]);
    await expectRevert(call(0, token, "batchBurn", [[], []]), "EmptyBatch");
  });

  it("transfers with TransferCompleted carrying the sender (the spender on transferFrom)", async () => {
    const direct = await sent(1, token, "transfer", [bob, 100n]);
    expect(f.events(f.tokenAbi, direct, "TransferCompleted")).toEqual([
      { sender: alice, from: alice, to: bob, amount: 100n },
    ]);
    await call(1, token, "approve", [carol, 50n]);
    const delegated = await sent(3, token, "transferFrom", [alice, carol, 50n]);
    expect(f.events(f.tokenAbi, delegated, "TransferCompleted")).toEqual([
      { sender: carol, from: alice, to: carol, amount: 50n },
    ]);
    expect(await balance(token, alice)).toBe(850n);
  });

  it("burns from an address and in batches, with BurnCompleted carrying the sender", async () => {
    const one = await sent(0, token, "burn", [alice, 50n]);
    expect(f.events(f.tokenAbi, one, "BurnCompleted")).toEqual([{ sender: admin, from: alice, amount: 50n }]);
    const batch = await sent(0, token, "batchBurn", [
      [bob, carol],
      [10n, 20n],
    ]);
    expect(f.events(f.tokenAbi, batch, "BurnCompleted")).toEqual([
      { sender: admin, from: bob, amount: 10n },
      { sender: admin, from: carol, amount: 20n },
    ]);
    expect(await balance(token, alice)).toBe(800n);
    await expectRevert(call(1, token, "burn", [alice, 1n]), "AccessControlUnauthorizedAccount", [alice, ROLES.supply]);
    await expectRevert(call(0, token, "burn", [alice, 10_000n]), "ERC20InsufficientBalance", [alice, 800n, 10_000n]);
  });

  it("batches governance calls with multicall, the sender preserved", async () => {
    const receipt = await sent(0, token, "multicall", [
      [
        encodeFunctionData({ abi: f.tokenAbi, functionName: "setMetadata", args: ["isin", "X1"] }),
        encodeFunctionData({ abi: f.tokenAbi, functionName: "setMetadata", args: ["lei", "L2"] }),
      ],
    ]);
    expect(f.events(f.tokenAbi, receipt, "MetadataSet")).toEqual([
      { sender: admin, key: "isin", value: "X1" },
      { sender: admin, key: "lei", value: "L2" },
    ]);
  });
});

describe("pause", () => {
  let token: Address;
  beforeAll(async () => {
    ({ token } = await f.createToken());
    await call(0, token, "mint", [alice, 100n]);
  });

  it("blocks transfers, mints and burns while paused; the emergency role only", async () => {
    await expectRevert(call(1, token, "pause"), "AccessControlUnauthorizedAccount", [alice, ROLES.emergency]);
    const paused = await sent(0, token, "pause");
    expect(f.events(f.tokenAbi, paused, "Paused")).toEqual([{ sender: admin }]);
    expect(await f.read(token, f.tokenAbi, "paused")).toBe(true);
    await expectRevert(call(1, token, "transfer", [bob, 1n]), "TokenPaused");
    await expectRevert(call(0, token, "mint", [bob, 1n]), "TokenPaused");
    await expectRevert(call(0, token, "burn", [alice, 1n]), "TokenPaused");
    await expectRevert(call(0, token, "pause"), "TokenPaused");

    const unpaused = await sent(0, token, "unpause");
    expect(f.events(f.tokenAbi, unpaused, "Unpaused")).toEqual([{ sender: admin }]);
    await expectRevert(call(0, token, "unpause"), "TokenNotPaused");
    await call(1, token, "transfer", [bob, 1n]);
    expect(await balance(token, bob)).toBe(1n);
  });
});

describe("freezes and forced transfers", () => {
  let token: Address;
  beforeAll(async () => {
    ({ token } = await f.createToken());
    await call(0, token, "mint", [alice, 1000n]);
  });

  it("freezes an address both ways (custodian only)", async () => {
    await expectRevert(call(1, token, "setAddressFrozen", [bob, true]), "AccessControlUnauthorizedAccount", [
      alice,
      ROLES.custodian,
    ]);
    const frozen = await sent(0, token, "setAddressFrozen", [bob, true]);
    expect(f.events(f.tokenAbi, frozen, "AddressFrozen")).toEqual([{ sender: admin, account: bob, frozen: true }]);
    await expectRevert(call(1, token, "transfer", [bob, 1n]), "AccountFrozen", [bob]);
    await call(0, token, "mint", [carol, 10n]);
    await call(0, token, "setAddressFrozen", [carol, true]);
    await expectRevert(call(3, token, "transfer", [alice, 1n]), "AccountFrozen", [carol]);
    await call(0, token, "setAddressFrozen", [bob, false]);
    await call(0, token, "setAddressFrozen", [carol, false]);
    await call(1, token, "transfer", [bob, 1n]);
    expect(await balance(token, bob)).toBe(1n);
  });

  it("holds partial amounts: a transfer above the unfrozen balance reverts with account, available, requested", async () => {
    const frozen = await sent(0, token, "freezePartialTokens", [alice, 600n]);
    expect(f.events(f.tokenAbi, frozen, "TokensFrozen")).toEqual([{ sender: admin, account: alice, amount: 600n }]);
    expect(await f.read(token, f.tokenAbi, "frozenBalanceOf", [alice])).toBe(600n);
    expect(await f.read(token, f.tokenAbi, "availableBalanceOf", [alice])).toBe(399n);
    await expectRevert(call(1, token, "transfer", [bob, 400n]), "InsufficientUnfrozenBalance", [alice, 399n, 400n]);
    await expectRevert(call(0, token, "burn", [alice, 400n]), "InsufficientUnfrozenBalance", [alice, 399n, 400n]);
    await expectRevert(call(0, token, "freezePartialTokens", [alice, 400n]), "InsufficientUnfrozenBalance", [
      alice,
      399n,
      400n,
    ]);
    await call(1, token, "transfer", [bob, 99n]);
    expect(await balance(token, alice)).toBe(900n);

    const unfrozen = await sent(0, token, "unfreezePartialTokens", [alice, 100n]);
    expect(f.events(f.tokenAbi, unfrozen, "TokensUnfrozen")).toEqual([{ sender: admin, account: alice, amount: 100n }]);
    await expectRevert(call(0, token, "unfreezePartialTokens", [alice, 501n]), "UnfreezeExceedsFrozen", [
      alice,
      500n,
      501n,
    ]);
  });

  it("refuses a forced transfer to a wallet the identity registry does not verify, as ERC-3643 does", async () => {
    const { token: other } = await f.createToken();
    const dave = f.chain.accounts[4];
    await call(0, other, "mint", [alice, 10n]);
    await expectRevert(call(0, other, "forcedTransfer", [alice, dave, 1n]), "ReceiverNotVerified", [dave]);
    await f.verify(dave);
    const receipt = await sent(0, other, "forcedTransfer", [alice, dave, 1n]);
    expect(f.events(f.tokenAbi, receipt, "ForcedTransfer")).toEqual([
      { sender: admin, from: alice, to: dave, amount: 1n },
    ]);
    expect(await balance(other, dave)).toBe(1n);
  });

  it("forces a transfer past freezes and pause, unfreezing what it needs, with ForcedTransfer instead of TransferCompleted", async () => {
    // alice: 900 held, 500 frozen, and the address frozen too; the token paused.
    await f.verify(carol);
    await call(0, token, "setAddressFrozen", [alice, true]);
    await call(0, token, "pause");
    await expectRevert(call(1, token, "forcedTransfer", [alice, carol, 1n]), "AccessControlUnauthorizedAccount", [
      alice,
      ROLES.custodian,
    ]);
    const receipt = await sent(0, token, "forcedTransfer", [alice, carol, 700n]);
    expect(f.events(f.tokenAbi, receipt, "ForcedTransfer")).toEqual([
      { sender: admin, from: alice, to: carol, amount: 700n },
    ]);
    expect(f.events(f.tokenAbi, receipt, "TransferCompleted")).toEqual([]);
    expect(f.events(f.tokenAbi, receipt, "TokensUnfrozen")).toEqual([{ sender: admin, account: alice, amount: 300n }]);
    expect(await balance(token, alice)).toBe(200n);
    expect(await balance(token, carol)).toBe(710n);
    expect(await f.read(token, f.tokenAbi, "frozenBalanceOf", [alice])).toBe(200n);
    await call(0, token, "unpause");
  });
});

describe("issuer metadata and documents", () => {
  let token: Address;
  beforeAll(async () => {
    ({ token } = await f.createToken());
  });

  it("sets and removes metadata (governance only)", async () => {
    const set = await sent(0, token, "setMetadata", ["isin", "US0000000001"]);
    expect(f.events(f.tokenAbi, set, "MetadataSet")).toEqual([{ sender: admin, key: "isin", value: "US0000000001" }]);
    expect(await f.read(token, f.tokenAbi, "metadata", ["isin"])).toBe("US0000000001");
    await expectRevert(call(1, token, "setMetadata", ["isin", "x"]), "AccessControlUnauthorizedAccount", [
      alice,
      ROLES.governance,
    ]);
    await expectRevert(call(0, token, "setMetadata", ["isin", ""]), "InvalidMetadata", ["isin"]);
    const removed = await sent(0, token, "removeMetadata", ["isin"]);
    expect(f.events(f.tokenAbi, removed, "MetadataRemoved")).toEqual([{ sender: admin, key: "isin" }]);
    expect(await f.read(token, f.tokenAbi, "metadata", ["isin"])).toBe("");
    await expectRevert(call(0, token, "removeMetadata", ["isin"]), "MetadataNotFound", ["isin"]);
  });

  it("keeps ERC-1643 documents: set, get, list, remove", async () => {
    const prospectus = stringToHex("prospectus", { size: 32 });
    const terms = stringToHex("terms", { size: 32 });
    const hash: Hex = keccak256(toHex("pdf bytes"));
    const set = await sent(0, token, "setDocument", [prospectus, "ipfs://prospectus", hash]);
    expect(f.events(f.tokenAbi, set, "DocumentUpdated")).toEqual([
      { sender: admin, name: prospectus, uri: "ipfs://prospectus", documentHash: hash },
    ]);
    await call(0, token, "setDocument", [terms, "https://example.org/terms", hash]);
    const [uri, documentHash, lastModified] = await f.read<[string, Hex, bigint]>(token, f.tokenAbi, "getDocument", [
      prospectus,
    ]);
    expect([uri, documentHash]).toEqual(["ipfs://prospectus", hash]);
    expect(lastModified).toBeGreaterThan(0n);
    expect(await f.read(token, f.tokenAbi, "getAllDocuments")).toEqual([prospectus, terms]);

    const removed = await sent(0, token, "removeDocument", [prospectus]);
    expect(f.events(f.tokenAbi, removed, "DocumentRemoved")).toEqual([
      { sender: admin, name: prospectus, uri: "ipfs://prospectus", documentHash: hash },
    ]);
    expect(await f.read(token, f.tokenAbi, "getAllDocuments")).toEqual([terms]);
    await expectRevert(f.read(token, f.tokenAbi, "getDocument", [prospectus]), "DocumentNotFound", [prospectus]);
    await expectRevert(call(1, token, "setDocument", [terms, "x", hash]), "AccessControlUnauthorizedAccount", [
      alice,
      ROLES.governance,
    ]);
  });
});

describe("compliance", () => {
  let token: Address;
  let compliance: Address;
  const module: Address = "0x000000000000000000000000000000000000dEaD";
  const counts = async () =>
    Promise.all(
      ["createdCount", "transferredCount", "destroyedCount"].map((fn) =>
        f.read<bigint>(compliance, f.chain.abi("TokenMockCompliance"), fn),
      ),
    );

  beforeAll(async () => {
    compliance = await f.deploy("TokenMockCompliance", [1000n]);
  });

  it("adds the initial modules through the compliance at creation, the creator as sender", async () => {
    const created = await f.createToken({ compliance, modules: [{ module, params: "0x1234" }] });
    token = created.token;
    const [announced] = f.events(f.chain.abi("SystemFactory"), created.receipt, "TokenCreated");
    expect(announced.compliance).toBe(compliance);
    expect(f.events(f.chain.abi("TokenMockCompliance"), created.receipt, "ModuleAdded")).toEqual([
      { sender: admin, token, module, typeId: "mock-module", params: "0x1234" },
    ]);
    expect(await f.read(token, f.tokenAbi, "compliance")).toBe(compliance);
    expect(await f.read(compliance, f.chain.abi("TokenMockCompliance"), "modulesOf", [token])).toEqual([module]);
  });

  it("refuses initial modules without a compliance", async () => {
    await expectRevert(f.createToken({ modules: [{ module, params: "0x" }] }), "NoCompliance");
  });

  it("checks mints and transfers before, calls the post-hooks after, and surfaces ComplianceCheckFailed", async () => {
    await expectRevert(call(0, token, "mint", [alice, 1001n]), "ComplianceCheckFailed", [
      compliance,
      "mock-limit",
      "amount above limit",
    ]);
    await call(0, token, "mint", [alice, 1000n]);
    await call(0, token, "mint", [alice, 1000n]);
    await expectRevert(call(1, token, "transfer", [bob, 1500n]), "ComplianceCheckFailed", [
      compliance,
      "mock-limit",
      "amount above limit",
    ]);
    await call(1, token, "transfer", [bob, 500n]);
    await call(0, token, "burn", [bob, 100n]);
    expect(await counts()).toEqual([2n, 1n, 1n]);
  });

  it("lets a forced transfer bypass the check (the post-hook still runs)", async () => {
    await f.verify(carol);
    await call(0, token, "forcedTransfer", [alice, carol, 1500n]);
    expect(await balance(token, carol)).toBe(1500n);
    expect(await counts()).toEqual([2n, 2n, 1n]);
  });

  it("forwards module management from governance with the sender", async () => {
    const other: Address = "0x000000000000000000000000000000000000bEEF";
    const added = await sent(0, token, "addComplianceModule", [other, "0xaa"]);
    expect(f.events(f.chain.abi("TokenMockCompliance"), added, "ModuleAdded")).toEqual([
      { sender: admin, token, module: other, typeId: "mock-module", params: "0xaa" },
    ]);
    const updated = await sent(0, token, "setComplianceModuleParameters", [other, "0xbb"]);
    expect(f.events(f.chain.abi("TokenMockCompliance"), updated, "ModuleParametersUpdated")).toEqual([
      { sender: admin, token, module: other, params: "0xbb" },
    ]);
    const removed = await sent(0, token, "removeComplianceModule", [module]);
    expect(f.events(f.chain.abi("TokenMockCompliance"), removed, "ModuleRemoved")).toEqual([
      { sender: admin, token, module },
    ]);
    expect(await f.read(compliance, f.chain.abi("TokenMockCompliance"), "modulesOf", [token])).toEqual([other]);
    await expectRevert(call(1, token, "addComplianceModule", [other, "0x"]), "AccessControlUnauthorizedAccount", [
      alice,
      ROLES.governance,
    ]);
  });

  it("detaches the compliance with setCompliance(0); module calls then revert NoCompliance", async () => {
    const receipt = await sent(0, token, "setCompliance", [ZERO]);
    expect(f.events(f.tokenAbi, receipt, "ComplianceSet")).toEqual([{ sender: admin, compliance: ZERO }]);
    await call(0, token, "mint", [alice, 5000n]);
    await expectRevert(call(0, token, "removeComplianceModule", [module]), "NoCompliance");
  });
});

describe("bytecode", () => {
  it("keeps every implementation under the EIP-170 limit", async () => {
    const sizes: Record<string, number> = {};
    for (const [name, address] of Object.entries(f.implementations)) {
      const code = await f.chain.publicClient.getCode({ address });
      sizes[name] = (code!.length - 2) / 2;
      expect(sizes[name], name).toBeGreaterThan(0);
      expect(sizes[name], name).toBeLessThan(EIP170_LIMIT);
    }
    expect(sizes.Token).toBeLessThan(EIP170_LIMIT);
  });
});
