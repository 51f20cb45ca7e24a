// Features: the registry, creation announcements, the on-chain rules, and the non-fee features at work.
import { type Address, domainSeparator, type Hex, maxUint256, parseSignature, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { incompatibleFeaturesOf, requiredFeaturesOf } from "../../domain/features/feature-rules.ts";
import {
  EIP170_LIMIT,
  encode,
  expectRevert,
  FEATURES,
  type FeatureId,
  ROLES,
  startTokenFixture,
  type TokenFixture,
} from "./token-fixture.ts";

let f: TokenFixture;
let admin: Address;
let alice: Address;
let bob: Address;
let carol: Address;
let treasury: Address;
let usdc: Address;

beforeAll(async () => {
  f = await startTokenFixture();
  [admin, alice, bob, carol, treasury] = f.chain.accounts;
  usdc = await f.deploy("MockERC20", ["USD Coin", "USDC", 6]);
  await f.write(0, usdc, f.chain.abi("MockERC20"), "mint", [treasury, parseUnits("1000000", 6)]);
});
afterAll(() => f?.chain.stop());

const tokenCall = (from: number, token: Address, fn: string, args: readonly unknown[] = []) =>
  f.write(from, token, f.tokenAbi, fn, args);
const featureCall = (from: number, id: FeatureId, feature: Address, fn: string, args: readonly unknown[] = []) =>
  f.write(from, feature, f.featureAbi(id), fn, args);
const featureRead = <T>(id: FeatureId, feature: Address, fn: string, args: readonly unknown[] = []) =>
  f.read<T>(feature, f.featureAbi(id), fn, args);
const usdcBalance = (account: Address) => f.read<bigint>(usdc, f.chain.abi("MockERC20"), "balanceOf", [account]);
const blockTime = async (hash: Hex) =>
  (await f.chain.publicClient.getBlock({ blockNumber: (await f.receipt(hash)).blockNumber })).timestamp;
const approveFromTreasury = (spender: Address) =>
  f.write(4, usdc, f.chain.abi("MockERC20"), "approve", [spender, maxUint256]);

describe("feature registry", () => {
  it("holds the eleven implementations, each registered under its own id", async () => {
    const ids = await f.read<string[]>(f.tokenFactory, f.chain.abi("TokenFactory"), "registeredFeatureIds");
    expect(ids).toEqual(Object.keys(FEATURES));
    for (const [id, name] of Object.entries(FEATURES)) {
      expect(await f.read(f.tokenFactory, f.chain.abi("TokenFactory"), "featureImplementation", [id])).toBe(
        f.implementations[name],
      );
      expect(await f.read(f.implementations[name], f.chain.abi(name), "featureId")).toBe(id);
    }
  });

  it("only lets the system manager register, and only under the implementation's id", async () => {
    const factoryAbi = f.chain.abi("TokenFactory");
    await expectRevert(
      f.write(1, f.tokenFactory, factoryAbi, "registerFeatureImplementations", [
        ["permit"],
        [f.implementations.PermitFeature],
      ]),
      "MissingSystemManagerRole",
      [alice],
    );
    await expectRevert(
      f.write(0, f.tokenFactory, factoryAbi, "registerFeatureImplementations", [
        ["permit"],
        [f.implementations.AumFeeFeature],
      ]),
      "FeatureImplementationMismatch",
      ["permit", f.implementations.AumFeeFeature],
    );
  });

  it("exposes the rules on every implementation, as the catalogue mirrors them", async () => {
    const rules: Record<string, [string[], string[]]> = {};
    for (const [id, name] of Object.entries(FEATURES)) {
      rules[id] = [
        await f.read<string[]>(f.implementations[name], f.chain.abi(name), "requiredFeatures"),
        await f.read<string[]>(f.implementations[name], f.chain.abi(name), "incompatibleFeatures"),
      ];
      expect(rules[id], id).toEqual([requiredFeaturesOf(id as FeatureId), incompatibleFeaturesOf(id as FeatureId)]);
    }
    expect(rules["fixed-treasury-yield"]).toEqual([["historical-balances"], []]);
    expect(rules["transaction-fee"]).toEqual([[], ["transaction-fee-accounting"]]);
    expect(rules["transaction-fee-accounting"]).toEqual([[], ["transaction-fee"]]);
    expect(rules.permit).toEqual([[], []]);
  });

  it("gives the indexer one event signature per name across the token and every feature", async () => {
    const signatures = new Map<string, string>();
    for (const name of ["Token", ...Object.values(FEATURES)]) {
      for (const item of f.chain.abi(name)) {
        if (item.type !== "event") continue;
        const signature = `${item.name}(${item.inputs.map((input) => input.type).join(",")})`;
        expect(signatures.get(item.name) ?? signature, `${name}.${item.name}`).toBe(signature);
        signatures.set(item.name, signature);
      }
    }
  });

  it("keeps every feature implementation under the EIP-170 limit", async () => {
    for (const name of Object.values(FEATURES)) {
      const code = await f.chain.publicClient.getCode({ address: f.implementations[name] });
      expect((code!.length - 2) / 2, name).toBeLessThan(EIP170_LIMIT);
    }
  });
});

describe("creation with features", () => {
  it("clones, attaches and announces every feature from the root with sender, token, feature, id and params", async () => {
    const aumParams = encode.aumFee(100n, treasury);
    const { token, features, receipt } = await f.createToken({
      features: [
        { featureId: "historical-balances", params: "0x" },
        { featureId: "aum-fee", params: aumParams },
        { featureId: "permit", params: "0x" },
      ],
    });
    const rootAbi = f.chain.abi("SystemFactory");
    const [created] = f.events(rootAbi, receipt, "TokenCreated", f.systemFactory);
    expect(created.featureIds).toEqual(["historical-balances", "aum-fee", "permit"]);
    expect(created.features).toEqual([features["historical-balances"], features["aum-fee"], features.permit]);
    expect(f.events(rootAbi, receipt, "FeatureAttached", f.systemFactory)).toEqual([
      {
        sender: admin,
        token,
        feature: features["historical-balances"],
        featureId: "historical-balances",
        params: "0x",
      },
      { sender: admin, token, feature: features["aum-fee"], featureId: "aum-fee", params: aumParams },
      { sender: admin, token, feature: features.permit, featureId: "permit", params: "0x" },
    ]);
    expect(await f.read(token, f.tokenAbi, "features")).toEqual(created.features);
    expect(await f.read(token, f.tokenAbi, "featureOf", ["aum-fee"])).toBe(features["aum-fee"]);
    expect(await f.read(token, f.tokenAbi, "isFeature", [features.permit])).toBe(true);
    expect(await featureRead("aum-fee", features["aum-fee"], "token")).toBe(token);
    expect(await featureRead("aum-fee", features["aum-fee"], "parameters")).toBe(aumParams);
    expect(await featureRead("aum-fee", features["aum-fee"], "factory")).toBe(f.tokenFactory);
  });

  it("enforces dependencies, incompatibilities, duplicates and unknown ids with errors naming the feature", async () => {
    const yieldParams = encode.fixedTreasuryYield(500n, "DAILY", treasury, usdc);
    const fee = encode.transactionFee(1n, 1n, 1n, treasury);
    await expectRevert(
      f.createToken({ features: [{ featureId: "fixed-treasury-yield", params: yieldParams }] }),
      "MissingRequiredFeature",
      ["fixed-treasury-yield", "historical-balances"],
    );
    await expectRevert(
      f.createToken({
        features: [
          { featureId: "transaction-fee", params: fee },
          { featureId: "transaction-fee-accounting", params: fee },
        ],
      }),
      "IncompatibleFeatures",
      ["transaction-fee", "transaction-fee-accounting"],
    );
    await expectRevert(
      f.createToken({
        features: [
          { featureId: "permit", params: "0x" },
          { featureId: "permit", params: "0x" },
        ],
      }),
      "DuplicateFeature",
      ["permit"],
    );
    await expectRevert(f.createToken({ features: [{ featureId: "nope", params: "0x" }] }), "UnknownFeature", ["nope"]);
  });

  it("attaches all ten compatible features at once within a block's gas", async () => {
    const minterToken = await f.createToken({ features: [{ featureId: "conversion-minter", params: "0x" }] });
    const now = await f.now();
    const fee = encode.transactionFee(10n, 10n, 10n, treasury);
    const { token, features, receipt } = await f.createToken({
      features: [
        { featureId: "historical-balances", params: "0x" },
        { featureId: "maturity-redemption", params: encode.maturityRedemption(now + 86_400n, usdc, treasury, 1n) },
        { featureId: "fixed-treasury-yield", params: encode.fixedTreasuryYield(500n, "MONTHLY", treasury, usdc) },
        { featureId: "voting-power", params: "0x" },
        { featureId: "aum-fee", params: encode.aumFee(100n, treasury) },
        { featureId: "transaction-fee", params: fee },
        { featureId: "external-transaction-fee", params: encode.externalTransactionFee(usdc, 0n, 0n, 0n, treasury) },
        {
          featureId: "conversion",
          params: encode.conversion({
            targetToken: minterToken.token,
            conversionMinter: minterToken.features["conversion-minter"],
            denominationAsset: usdc,
            discountBps: 0n,
            capPricePerShareWad: 10n ** 18n,
            conversionWindowStart: now,
            conversionWindowEnd: now + 10n,
            minConversionAmount: 0n,
            partialAllowed: true,
          }),
        },
        { featureId: "conversion-minter", params: "0x" },
        { featureId: "permit", params: "0x" },
      ],
    });
    expect(Object.keys(features)).toHaveLength(10);
    expect(receipt.gasUsed).toBeLessThan(6_000_000n);
    const minted = await f.receipt(await tokenCall(0, token, "mint", [alice, 10_000n]));
    expect(minted.gasUsed).toBeLessThan(1_000_000n);
    expect(await f.read(token, f.tokenAbi, "balanceOf", [alice])).toBe(9_990n);
  });

  it("stops a feature whose hook keeps moving tokens (one nested movement only)", async () => {
    const looping = await f.deploy("TokenMockLoopingFeature");
    await f.write(0, f.tokenFactory, f.chain.abi("TokenFactory"), "registerFeatureImplementations", [
      ["mock-looping"],
      [looping],
    ]);
    const { token } = await f.createToken({ features: [{ featureId: "mock-looping", params: "0x" }] });
    await expectRevert(tokenCall(0, token, "mint", [alice, 5n]), "FeatureHookReentrancy");
  });

  it("validates parameters at creation", async () => {
    await expectRevert(
      f.createToken({ features: [{ featureId: "aum-fee", params: encode.aumFee(10_001n, treasury) }] }),
      "BpsTooHigh",
      ["feeBps", 10_001n],
    );
    await expectRevert(
      f.createToken({
        features: [
          { featureId: "historical-balances", params: "0x" },
          { featureId: "fixed-treasury-yield", params: encode.fixedTreasuryYield(500n, "HOURLY", treasury, usdc) },
        ],
      }),
      "UnknownInterval",
      ["HOURLY"],
    );
  });
});

describe("historical-balances", () => {
  it("answers balanceOfAt and totalSupplyAt by timestamp after time travel", async () => {
    const { token, features } = await f.createToken({ features: [{ featureId: "historical-balances", params: "0x" }] });
    const hb = features["historical-balances"];
    const t1 = await blockTime(await tokenCall(0, token, "mint", [alice, 100n]));
    await f.travel(10);
    const t2 = await blockTime(await tokenCall(1, token, "transfer", [bob, 40n]));
    await f.travel(10);
    const t3 = await blockTime(await tokenCall(0, token, "burn", [bob, 15n]));
    await f.travel(10);

    const at = (account: Address, t: bigint) =>
      featureRead<bigint>("historical-balances", hb, "balanceOfAt", [account, t]);
    expect(await at(alice, t1 - 1n)).toBe(0n);
    expect(await at(alice, t1)).toBe(100n);
    expect(await at(alice, t2 - 1n)).toBe(100n);
    expect(await at(alice, t2)).toBe(60n);
    expect(await at(bob, t2)).toBe(40n);
    expect(await at(bob, t3)).toBe(25n);
    const supply = (t: bigint) => featureRead<bigint>("historical-balances", hb, "totalSupplyAt", [t]);
    expect([await supply(t1 - 1n), await supply(t2), await supply(t3)]).toEqual([0n, 100n, 85n]);
    expect(await featureRead("historical-balances", hb, "CLOCK_MODE")).toBe("mode=timestamp");
    await expectRevert(
      featureRead("historical-balances", hb, "balanceOfAt", [alice, (await f.now()) + 1000n]),
      "FutureLookup",
    );
  });
});

describe("voting-power", () => {
  it("tracks delegated votes and past votes by timestamp", async () => {
    const { token, features } = await f.createToken({ features: [{ featureId: "voting-power", params: "0x" }] });
    const vp = features["voting-power"];
    await tokenCall(0, token, "batchMint", [
      [alice, bob],
      [100n, 50n],
    ]);
    expect(await featureRead("voting-power", vp, "getVotes", [alice])).toBe(0n);
    const delegated = await f.receipt(await featureCall(1, "voting-power", vp, "delegate", [alice]));
    expect(f.events(f.featureAbi("voting-power"), delegated, "DelegateChanged")).toEqual([
      { delegator: alice, fromDelegate: "0x0000000000000000000000000000000000000000", toDelegate: alice },
    ]);
    await featureCall(2, "voting-power", vp, "delegate", [alice]);
    expect(await featureRead("voting-power", vp, "getVotes", [alice])).toBe(150n);
    await f.travel(5);
    const before = (await f.now()) - 1n;
    await tokenCall(1, token, "transfer", [carol, 30n]);
    await f.travel(5);
    expect(await featureRead("voting-power", vp, "getVotes", [alice])).toBe(120n);
    expect(await featureRead("voting-power", vp, "getPastVotes", [alice, before])).toBe(150n);
    expect(await featureRead("voting-power", vp, "getPastTotalSupply", [before])).toBe(150n);
    expect(await featureRead("voting-power", vp, "delegates", [bob])).toBe(alice);
  });
});

describe("permit", () => {
  it("is refused on a token without the permit feature", async () => {
    const { token } = await f.createToken();
    await expectRevert(
      tokenCall(0, token, "permit", [alice, bob, 1n, maxUint256, 27, `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`]),
      "PermitNotEnabled",
    );
  });

  it("accepts an EIP-2612 signature made with viem's signTypedData on the token's own address", async () => {
    const { token } = await f.createToken({ name: "Permit Token", features: [{ featureId: "permit", params: "0x" }] });
    await tokenCall(0, token, "mint", [alice, 1000n]);
    const domain = { name: "Permit Token", version: "1", chainId: f.chain.chain.id, verifyingContract: token } as const;
    expect(await f.read(token, f.tokenAbi, "DOMAIN_SEPARATOR")).toBe(domainSeparator({ domain }));
    const deadline = (await f.now()) + 3600n;
    const signature = await f.chain.wallets[1].signTypedData({
      domain,
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      message: { owner: alice, spender: bob, value: 400n, nonce: 0n, deadline },
    });
    const { r, s, v, yParity } = parseSignature(signature);
    const vByte = v !== undefined ? Number(v) : yParity + 27;
    // carol relays the signature; bob then spends it.
    await tokenCall(3, token, "permit", [alice, bob, 400n, deadline, vByte, r, s]);
    expect(await f.read(token, f.tokenAbi, "allowance", [alice, bob])).toBe(400n);
    expect(await f.read(token, f.tokenAbi, "nonces", [alice])).toBe(1n);
    await tokenCall(2, token, "transferFrom", [alice, carol, 400n]);
    expect(await f.read(token, f.tokenAbi, "balanceOf", [carol])).toBe(400n);
    await expectRevert(
      tokenCall(3, token, "permit", [alice, bob, 400n, deadline, vByte, r, s]),
      "ERC2612InvalidSigner",
    );
  });
});

describe("maturity-redemption", () => {
  it("refuses before maturity, then burns and pays faceValue per token from the treasury", async () => {
    const maturity = (await f.now()) + 1000n;
    const faceValue = parseUnits("100", 6);
    const params = encode.maturityRedemption(maturity, usdc, treasury, faceValue);
    const { token, features } = await f.createToken({
      features: [{ featureId: "maturity-redemption", params }],
    });
    const mr = features["maturity-redemption"];
    await approveFromTreasury(mr);
    await tokenCall(0, token, "mint", [alice, parseUnits("5", 18)]);
    await expectRevert(featureCall(1, "maturity-redemption", mr, "redeem", [parseUnits("1", 18)]), "NotMatured");

    await f.travel(1001);
    const before = await usdcBalance(alice);
    const receipt = await f.receipt(await featureCall(1, "maturity-redemption", mr, "redeem", [parseUnits("2", 18)]));
    expect(await usdcBalance(alice)).toBe(before + parseUnits("200", 6));
    expect(await f.read(token, f.tokenAbi, "balanceOf", [alice])).toBe(parseUnits("3", 18));
    expect(f.events(f.featureAbi("maturity-redemption"), receipt, "Redeemed", mr)).toEqual([
      { sender: alice, amount: parseUnits("2", 18), payout: parseUnits("200", 6), denominationAsset: usdc, treasury },
    ]);
    expect(f.events(f.tokenAbi, receipt, "BurnCompleted", token)).toEqual([
      { sender: mr, from: alice, amount: parseUnits("2", 18) },
    ]);
    await expectRevert(featureCall(1, "maturity-redemption", mr, "redeem", [0n]), "ZeroRedemption");
  });

  it("lets governance move the treasury after maturity but not the face value", async () => {
    const maturity = (await f.now()) + 10n;
    const { features } = await f.createToken({
      features: [{ featureId: "maturity-redemption", params: encode.maturityRedemption(maturity, usdc, treasury, 1n) }],
    });
    const mr = features["maturity-redemption"];
    await f.travel(20);
    const moved = encode.maturityRedemption(maturity, usdc, carol, 1n);
    const receipt = await f.receipt(await featureCall(0, "maturity-redemption", mr, "updateParameters", [moved]));
    expect(f.events(f.featureAbi("maturity-redemption"), receipt, "FeatureParametersUpdated")).toEqual([
      {
        sender: admin,
        token: await featureRead("maturity-redemption", mr, "token"),
        featureId: "maturity-redemption",
        params: moved,
      },
    ]);
    await expectRevert(
      featureCall(0, "maturity-redemption", mr, "updateParameters", [
        encode.maturityRedemption(maturity, usdc, carol, 2n),
      ]),
      "AlreadyMatured",
      [maturity],
    );
    await expectRevert(
      featureCall(0, "maturity-redemption", mr, "updateParameters", [
        encode.maturityRedemption(maturity, bob, carol, 1n),
      ]),
      "ParameterImmutable",
      ["denominationAsset"],
    );
  });
});

describe("fixed-treasury-yield", () => {
  let token: Address;
  let fy: Address;
  const perPeriod = (rateBps: bigint) =>
    (parseUnits("365", 18) * rateBps * 86_400n * 10n ** 6n) / (10_000n * 365n * 86_400n * 10n ** 18n);

  beforeAll(async () => {
    const created = await f.createToken({
      features: [
        { featureId: "historical-balances", params: "0x" },
        { featureId: "fixed-treasury-yield", params: encode.fixedTreasuryYield(1000n, "DAILY", treasury, usdc) },
      ],
    });
    token = created.token;
    fy = created.features["fixed-treasury-yield"];
    await approveFromTreasury(fy);
    await tokenCall(0, token, "mint", [alice, parseUnits("365", 18)]);
  });

  it("pays each completed period from the treasury, based on historical balances", async () => {
    await expectRevert(featureCall(1, "fixed-treasury-yield", fy, "claim"), "NoCompletedPeriod", [alice, 0n]);
    await f.travel(2 * 86_400 + 60);
    expect(await featureRead("fixed-treasury-yield", fy, "completedPeriods")).toBe(2n);
    const [claimable] = await featureRead<[bigint, bigint, bigint]>("fixed-treasury-yield", fy, "claimable", [alice]);
    expect(claimable).toBe(2n * perPeriod(1000n));
    expect(claimable).toBe(200_000n); // 10 %/year on 365 tokens for two days = 0.2 USDC

    const before = await usdcBalance(alice);
    const receipt = await f.receipt(await featureCall(1, "fixed-treasury-yield", fy, "claim"));
    expect(await usdcBalance(alice)).toBe(before + 200_000n);
    expect(f.events(f.featureAbi("fixed-treasury-yield"), receipt, "YieldClaimed")).toEqual([
      { sender: alice, fromPeriod: 0n, toPeriod: 2n, amount: 200_000n, denominationAsset: usdc },
    ]);
    await expectRevert(featureCall(1, "fixed-treasury-yield", fy, "claim"), "NoCompletedPeriod", [alice, 2n]);
    // bob held nothing: his claim settles the periods for zero.
    const empty = await f.receipt(await featureCall(2, "fixed-treasury-yield", fy, "claim"));
    expect(f.events(f.featureAbi("fixed-treasury-yield"), empty, "YieldClaimed")[0]).toMatchObject({ amount: 0n });
  });

  it("applies a governance rate change from the period in progress; interval and asset stay fixed", async () => {
    const next = encode.fixedTreasuryYield(2000n, "DAILY", treasury, usdc);
    await expectRevert(
      featureCall(1, "fixed-treasury-yield", fy, "updateParameters", [next]),
      "AccessControlUnauthorizedAccount",
      [alice, ROLES.governance],
    );
    const receipt = await f.receipt(await featureCall(0, "fixed-treasury-yield", fy, "updateParameters", [next]));
    expect(f.events(f.featureAbi("fixed-treasury-yield"), receipt, "FeatureParametersUpdated")).toEqual([
      { sender: admin, token, featureId: "fixed-treasury-yield", params: next },
    ]);
    expect(await featureRead("fixed-treasury-yield", fy, "rateOfPeriod", [1n])).toBe(1000n);
    expect(await featureRead("fixed-treasury-yield", fy, "rateOfPeriod", [2n])).toBe(2000n);
    await f.travel(86_400);
    const [amount, from, to] = await featureRead<[bigint, bigint, bigint]>("fixed-treasury-yield", fy, "claimable", [
      alice,
    ]);
    expect([amount, from, to]).toEqual([perPeriod(2000n), 2n, 3n]);
    await expectRevert(
      featureCall(0, "fixed-treasury-yield", fy, "updateParameters", [
        encode.fixedTreasuryYield(1n, "WEEKLY", treasury, usdc),
      ]),
      "ParameterImmutable",
      ["interval"],
    );
  });
});

describe("aum-fee", () => {
  it("mints the time-proportional fee on the total supply to the recipient", async () => {
    const { token, features } = await f.createToken({
      features: [{ featureId: "aum-fee", params: encode.aumFee(200n, treasury) }],
    });
    const aum = features["aum-fee"];
    await tokenCall(0, token, "mint", [alice, parseUnits("1000", 18)]);
    await f.travel(30 * 86_400);
    const receipt = await f.receipt(await featureCall(2, "aum-fee", aum, "collect"));
    const [collected] = f.events(f.featureAbi("aum-fee"), receipt, "AumFeeCollected");
    const elapsed = (collected.toTimestamp as bigint) - (collected.fromTimestamp as bigint);
    expect(elapsed).toBeGreaterThanOrEqual(30n * 86_400n);
    const expected = (parseUnits("1000", 18) * 200n * elapsed) / (10_000n * 365n * 86_400n);
    expect(collected).toEqual({
      sender: bob,
      recipient: treasury,
      amount: expected,
      fromTimestamp: collected.fromTimestamp,
      toTimestamp: collected.toTimestamp,
    });
    expect(await f.read(token, f.tokenAbi, "balanceOf", [treasury])).toBe(expected);
    expect(f.events(f.tokenAbi, receipt, "MintCompleted", token)).toEqual([
      { sender: aum, to: treasury, amount: expected },
    ]);

    // A governance update collects at the old terms first, then applies the new ones.
    const next = encode.aumFee(0n, carol);
    await f.travel(86_400);
    const updated = await f.receipt(await featureCall(0, "aum-fee", aum, "updateParameters", [next]));
    expect(f.events(f.featureAbi("aum-fee"), updated, "AumFeeCollected")).toHaveLength(1);
    expect(f.events(f.featureAbi("aum-fee"), updated, "FeatureParametersUpdated")[0]).toMatchObject({ params: next });
    await f.travel(86_400);
    expect(await featureRead("aum-fee", aum, "accruedFee")).toBe(0n);
  });

  it("refuses an update on a feature without parameters", async () => {
    const { features } = await f.createToken({ features: [{ featureId: "permit", params: "0x" }] });
    await expectRevert(
      featureCall(0, "permit", features.permit, "updateParameters", ["0x"]),
      "FeatureHasNoParameters",
      ["permit"],
    );
  });
});
