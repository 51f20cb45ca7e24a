// Supply and holder limits: capped-v2, capital-raise-limit, collateral-v2, investor-count-v2.
import { type Address, getAddress, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ComplianceFixture,
  encodeParams,
  expectRefusal,
  expectRevert,
  setupCompliance,
} from "./compliance-fixture.ts";

const US = 840;
const DE = 276;

describe("compliance limit modules", () => {
  let f: ComplianceFixture;
  let oracle: Address;
  let alice: Address; // US
  let bob: Address; // US
  let carol: Address; // DE
  let dave: Address; // DE
  const wallet = (n: number) => getAddress(`0x${(0xd000 + n).toString(16).padStart(40, "0")}`);

  beforeAll(async () => {
    f = await setupCompliance();
    [oracle, alice, bob, carol, dave] = f.chain.accounts;
    await f.register(alice, US);
    await f.register(bob, US);
    await f.register(carol, DE);
    await f.register(dave, DE);
  });
  afterAll(async () => {
    await f?.chain.stop();
  });

  describe("capped-v2", () => {
    it("refuses mints beyond the max supply, not transfers or burns", async () => {
      const token = await f.newToken();
      await expectRevert(f.addModule(token, "CappedModule", encodeParams.capped(0n)), "ZeroMaxSupply");
      await f.addModule(token, "CappedModule", encodeParams.capped(1000n));
      await f.mint(token, alice, 600n);
      await f.mint(token, bob, 400n);
      await expectRefusal(f, f.mint(token, alice, 1n), "CappedModule", "max supply 1000 exceeded");
      await f.transfer(token, 1, carol, 100n);
      await f.burn(token, bob, 50n);
      await f.mint(token, alice, 50n);
      await f.setParams(token, "CappedModule", encodeParams.capped(500n)); // below supply: stops mints
      await expectRefusal(f, f.mint(token, alice, 1n), "CappedModule", "max supply 500 exceeded");
      expect(await f.read(token, "MockComplianceToken", "totalSupply")).toBe(1000n);
    });
  });

  describe("capital-raise-limit", () => {
    it("caps the total minted; burns give nothing back", async () => {
      const token = await f.newToken();
      await f.addModule(token, "CapitalRaiseLimitModule", encodeParams.capitalRaise(1000n, 0n, 0n));
      await f.mint(token, alice, 700n);
      await f.burn(token, alice, 700n);
      await f.mint(token, bob, 300n);
      await expectRefusal(f, f.mint(token, bob, 1n), "CapitalRaiseLimitModule", "total raise limit 1000 exceeded");
      await f.transfer(token, 2, carol, 300n);
      expect(await f.read(f.modules.CapitalRaiseLimitModule, "CapitalRaiseLimitModule", "raisedOf", [token])).toEqual([
        1000n,
        0n,
      ]);
    });

    it("caps what is minted per period and opens a new allowance each period", async () => {
      const token = await f.newToken();
      const day = 86_400n;
      await f.addModule(token, "CapitalRaiseLimitModule", encodeParams.capitalRaise(250n, 100n, day));
      await f.mint(token, alice, 60n);
      await f.mint(token, alice, 40n);
      await expectRefusal(f, f.mint(token, alice, 1n), "CapitalRaiseLimitModule", "period raise limit 100 exceeded");
      await f.increaseTime(Number(day));
      await f.mint(token, alice, 100n);
      await f.increaseTime(Number(day));
      await expectRefusal(f, f.mint(token, alice, 51n), "CapitalRaiseLimitModule", "total raise limit 250 exceeded");
      await f.mint(token, alice, 50n);
      expect(await f.read(f.modules.CapitalRaiseLimitModule, "CapitalRaiseLimitModule", "raisedOf", [token])).toEqual([
        250n,
        50n,
      ]);
    });

    it("validates the limits", async () => {
      const token = await f.newToken();
      const add = (maxTotal: bigint, periodLimit: bigint, length: bigint) =>
        f.addModule(token, "CapitalRaiseLimitModule", encodeParams.capitalRaise(maxTotal, periodLimit, length));
      await expectRevert(add(0n, 0n, 0n), "NoLimitSet");
      await expectRevert(add(0n, 0n, 60n), "NoLimitSet");
      await expectRevert(add(10n, 5n, 0n), "InvalidPeriod", [5n, 0n]);
      await expectRevert(add(10n, 0n, 60n), "InvalidPeriod", [0n, 60n]);
      await add(0n, 5n, 60n);
    });
  });

  describe("collateral-v2", () => {
    const module = () => f.modules.CollateralModule;

    it("limits supply to the collateral the oracle attests, at the configured ratio", async () => {
      const token = await f.newToken();
      await f.addModule(token, "CollateralModule", encodeParams.collateral(oracle, 15_000)); // 150 %
      await expectRefusal(f, f.mint(token, alice, 1n), "CollateralModule", "no collateral attested");
      await expectRevert(
        f.write(1, module(), "CollateralModule", "setCollateral", [token, 1500n, 0n]),
        "NotCollateralOracle",
        [token, alice],
      );
      const hash = await f.write(0, module(), "CollateralModule", "setCollateral", [token, 1500n, 0n]);
      expect((await f.events(hash, "CollateralModule", "CollateralUpdated")).map((e) => e.args)).toEqual([
        { sender: oracle, token, amount: 1500n, expiresAt: 0n },
      ]);
      await f.mint(token, alice, 900n);
      await f.mint(token, bob, 100n);
      await expectRefusal(f, f.mint(token, bob, 1n), "CollateralModule", "insufficient collateral");
      await f.transfer(token, 1, carol, 10n);
      await f.burn(token, bob, 100n);
      await f.mint(token, bob, 100n);
      expect(await f.read(module(), "CollateralModule", "collateralOf", [token])).toEqual([1500n, 0n]);
    });

    it("refuses mints once the attestation expired", async () => {
      const token = await f.newToken();
      await f.addModule(token, "CollateralModule", encodeParams.collateral(oracle, 10_000));
      const now = (await f.chain.publicClient.getBlock()).timestamp;
      await expectRevert(
        f.write(0, module(), "CollateralModule", "setCollateral", [token, 100n, now]),
        "CollateralExpiryInPast",
        [now],
      );
      await f.write(0, module(), "CollateralModule", "setCollateral", [token, 100n, now + 3600n]);
      await f.mint(token, alice, 100n);
      await f.increaseTime(3601);
      await f.burn(token, alice, 50n);
      await expectRefusal(f, f.mint(token, alice, 1n), "CollateralModule", "collateral attestation expired");
    });

    it("hands the oracle's seat over in two steps, rewriting the token's parameters as the engine announces", async () => {
      const token = await f.newToken();
      await f.addModule(token, "CollateralModule", encodeParams.collateral(oracle, 12_500));
      await expectRevert(
        f.write(1, module(), "CollateralModule", "transferOracle", [token, bob]),
        "NotCollateralOracle",
        [token, alice],
      );
      const started = await f.write(0, module(), "CollateralModule", "transferOracle", [token, bob]);
      expect(
        (await f.events(started, "CollateralModule", "CollateralOracleTransferStarted")).map((e) => e.args),
      ).toEqual([{ token, oracle, newOracle: bob }]);
      expect(await f.read(module(), "CollateralModule", "pendingOracleOf", [token])).toBe(bob);
      await expectRevert(
        f.write(3, module(), "CollateralModule", "acceptOracle", [token]),
        "NotPendingCollateralOracle",
        [token, carol],
      );
      const accepted = await f.write(2, module(), "CollateralModule", "acceptOracle", [token]);
      expect((await f.events(accepted, "CollateralModule", "CollateralOracleTransferred")).map((e) => e.args)).toEqual([
        { token, oracle, newOracle: bob },
      ]);
      const params = encodeParams.collateral(bob, 12_500);
      expect((await f.events(accepted, "Compliance", "ModuleParametersUpdated")).map((e) => e.args)).toEqual([
        { sender: bob, token, module: module(), params },
      ]);
      expect(await f.read(module(), "CollateralModule", "configOf", [token])).toEqual([bob, 12_500]);
      expect(await f.read(module(), "CollateralModule", "parametersOf", [token])).toBe(params);
      // The old oracle attests no more; the new one does.
      await expectRevert(
        f.write(0, module(), "CollateralModule", "setCollateral", [token, 1n, 0n]),
        "NotCollateralOracle",
        [token, oracle],
      );
      await f.write(2, module(), "CollateralModule", "setCollateral", [token, 125n, 0n]);
      await f.mint(token, alice, 100n);
      // Only a module the token has announces its parameters; new parameters from governance end a pending transfer.
      await expectRevert(
        f.write(0, f.engine, "Compliance", "moduleParametersChanged", [oracle, token, params]),
        "ModuleNotAdded",
        [token, oracle],
      );
      await f.write(2, module(), "CollateralModule", "transferOracle", [token, carol]);
      await f.setParams(token, "CollateralModule", encodeParams.collateral(bob, 15_000));
      await expectRevert(
        f.write(3, module(), "CollateralModule", "acceptOracle", [token]),
        "NotPendingCollateralOracle",
        [token, carol],
      );
    });

    it("validates the oracle and the ratio, and only for configured tokens", async () => {
      const token = await f.newToken();
      await expectRevert(
        f.addModule(token, "CollateralModule", encodeParams.collateral(zeroAddress, 10_000)),
        "ZeroOracle",
      );
      await expectRevert(
        f.addModule(token, "CollateralModule", encodeParams.collateral(oracle, 9_999)),
        "CollateralRatioTooLow",
        [9_999, 10_000],
      );
      await expectRevert(
        f.write(0, module(), "CollateralModule", "setCollateral", [token, 1n, 0n]),
        "TokenNotConfigured",
        [token],
      );
    });
  });

  describe("investor-count-v2", () => {
    const count = (token: Address, country: number) =>
      f.read<[bigint, bigint]>(f.modules.InvestorCountModule, "InvestorCountModule", "investorCount", [token, country]);

    it("caps the number of holders across mints, transfers and burns", async () => {
      const token = await f.newToken();
      await f.addModule(token, "InvestorCountModule", encodeParams.investorCount(2n, [], []));
      await f.mint(token, alice, 100n);
      await f.mint(token, bob, 100n);
      await f.mint(token, alice, 1n); // existing holder
      await expectRefusal(f, f.mint(token, carol, 1n), "InvestorCountModule", "max investors 2 reached");
      await expectRefusal(f, f.transfer(token, 1, carol, 10n), "InvestorCountModule", "max investors 2 reached");
      // Bob hands over his whole balance: he leaves, Carol takes his place.
      await f.transfer(token, 2, carol, 100n);
      expect(await count(token, DE)).toEqual([2n, 1n]);
      await f.transfer(token, 1, bob, 0n); // zero amount creates no holder
      // A burn of a whole balance frees a place.
      await f.burn(token, carol, 100n);
      expect(await count(token, DE)).toEqual([1n, 0n]);
      await f.mint(token, dave, 5n);
      expect(await count(token, DE)).toEqual([2n, 1n]);
      expect(await f.read(f.engine, "Compliance", "canTransfer", [token, alice, wallet(1), 1n])).toEqual([
        false,
        f.modules.InvestorCountModule,
        "investor-count-v2",
        "max investors 2 reached",
      ]);
    });

    it("caps holders per country", async () => {
      const token = await f.newToken();
      await f.addModule(token, "InvestorCountModule", encodeParams.investorCount(0n, [DE], [1n]));
      await f.mint(token, carol, 10n);
      await f.mint(token, alice, 10n);
      await f.mint(token, bob, 10n);
      await expectRefusal(f, f.mint(token, dave, 1n), "InvestorCountModule", "max investors 1 reached for country 276");
      await f.transfer(token, 3, dave, 10n); // Carol (DE) leaves, Dave (DE) arrives
      expect(await count(token, DE)).toEqual([3n, 1n]);
      expect(await count(token, US)).toEqual([3n, 2n]);
      await f.setParams(token, "InvestorCountModule", encodeParams.investorCount(3n, [DE], [2n]));
      await expectRefusal(f, f.mint(token, carol, 1n), "InvestorCountModule", "max investors 3 reached");
      expect(await f.read(f.modules.InvestorCountModule, "InvestorCountModule", "countryLimitOf", [token, DE])).toBe(
        2n,
      );
    });

    it("forgets its counts when removed", async () => {
      const token = await f.newToken();
      await f.addModule(token, "InvestorCountModule", encodeParams.investorCount(1n, [], []));
      await f.mint(token, alice, 1n);
      await f.write(0, token, "MockComplianceToken", "removeModule", [f.modules.InvestorCountModule]);
      expect(await count(token, US)).toEqual([0n, 0n]);
      await f.addModule(token, "InvestorCountModule", encodeParams.investorCount(1n, [], []));
      await f.mint(token, bob, 1n); // alice's holding predates the module: not counted
      await expectRefusal(f, f.mint(token, carol, 1n), "InvestorCountModule", "max investors 1 reached");
    });

    it("validates the limits", async () => {
      const token = await f.newToken();
      const add = (max: bigint, countries: number[], limits: bigint[]) =>
        f.addModule(token, "InvestorCountModule", encodeParams.investorCount(max, countries, limits));
      await expectRevert(add(0n, [], []), "NoLimitSet");
      await expectRevert(add(5n, [US], []), "LengthMismatch", [1n, 0n]);
      await expectRevert(add(5n, [US, 0], [1n, 1n]), "InvalidCountryCode", [1n, 0]);
      await expectRevert(add(5n, [US, DE], [1n, 0n]), "ZeroCountryLimit", [1n]);
      await expectRevert(add(5n, [US, DE, US], [1n, 2n, 3n]), "DuplicateCountry", [2n]);
      await add(5n, [US, DE], [1n, 2n]);
    });
  });
});
