// Compliance modules over registry data: address, country and identity lists, identity verification.
import { type Address, getAddress, keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ComplianceFixture,
  encodeParams,
  expectRefusal,
  expectRevert,
  node,
  setupCompliance,
} from "./compliance-fixture.ts";

const US = 840;
const DE = 276;
const BE = 56;
const KYC = BigInt(keccak256(toHex("kyc")));
const AML = BigInt(keccak256(toHex("aml")));
const ACCREDITED = BigInt(keccak256(toHex("accredited")));

describe("compliance list and identity modules", () => {
  let f: ComplianceFixture;
  let alice: Address; // US
  let bob: Address; // DE
  let carol: Address; // BE
  let dave: Address; // not registered
  const identity = (n: number) => getAddress(`0x${n.toString(16).padStart(40, "0")}`);

  beforeAll(async () => {
    f = await setupCompliance();
    [, alice, bob, carol, dave] = f.chain.accounts;
    await f.register(alice, US, identity(0xa1));
    await f.register(bob, DE, identity(0xb0));
    await f.register(carol, BE, identity(0xc0));
  });
  afterAll(async () => {
    await f?.chain.stop();
  });

  describe("address-block-list-v2", () => {
    it("refuses blocked senders and recipients, never burns", async () => {
      const token = await f.newToken();
      await f.mint(token, alice, 100n);
      await f.mint(token, bob, 100n);
      await f.addModule(token, "AddressBlockListModule", encodeParams.addresses([bob]));
      await expectRefusal(f, f.mint(token, bob, 1n), "AddressBlockListModule", "recipient address blocked");
      await expectRefusal(f, f.transfer(token, 1, bob, 1n), "AddressBlockListModule", "recipient address blocked");
      await expectRefusal(f, f.transfer(token, 2, alice, 1n), "AddressBlockListModule", "sender address blocked");
      await f.burn(token, bob, 10n);
      await f.transfer(token, 1, carol, 5n);
      expect([await f.balanceOf(token, bob), await f.balanceOf(token, carol)]).toEqual([90n, 5n]);

      await f.setParams(token, "AddressBlockListModule", encodeParams.addresses([carol]));
      await f.transfer(token, 2, alice, 1n);
      await expectRefusal(f, f.transfer(token, 1, carol, 1n), "AddressBlockListModule", "recipient address blocked");
      expect(await f.balanceOf(token, alice)).toBe(96n);
    });

    it("validates the list", async () => {
      const token = await f.newToken();
      await expectRevert(
        f.addModule(
          token,
          "AddressBlockListModule",
          encodeParams.addresses([alice, "0x0000000000000000000000000000000000000000"]),
        ),
        "ZeroAddressEntry",
        [1n],
      );
      await expectRevert(
        f.addModule(token, "AddressBlockListModule", encodeParams.addresses([alice, bob, alice])),
        "DuplicateEntry",
        [2n],
      );
      const tooMany = Array.from({ length: 257 }, (_, i) => identity(i + 1));
      await expectRevert(
        f.addModule(token, "AddressBlockListModule", encodeParams.addresses(tooMany)),
        "TooManyEntries",
        [257n, 256n],
      );
      await f.addModule(token, "AddressBlockListModule", encodeParams.addresses([]));
      await f.mint(token, alice, 1n);
    });
  });

  describe("country-allow-list-v2", () => {
    it("checks the recipient's registry country on mints and transfers", async () => {
      const token = await f.newToken();
      await f.mint(token, bob, 50n);
      await f.addModule(token, "CountryAllowListModule", encodeParams.countries([US, BE]));
      await f.mint(token, alice, 10n);
      await expectRefusal(f, f.mint(token, bob, 10n), "CountryAllowListModule", "recipient country 276 not allowed");
      await expectRefusal(f, f.mint(token, dave, 10n), "CountryAllowListModule", "recipient not registered");
      // A holder from a country not listed may still sell to an allowed buyer, and be burned.
      await f.transfer(token, 2, carol, 5n);
      await f.burn(token, bob, 5n);
      await expectRefusal(
        f,
        f.transfer(token, 1, bob, 1n),
        "CountryAllowListModule",
        "recipient country 276 not allowed",
      );
      expect(await f.read(f.engine, "Compliance", "canTransfer", [token, alice, bob, 1n])).toEqual([
        false,
        f.modules.CountryAllowListModule,
        "country-allow-list-v2",
        "recipient country 276 not allowed",
      ]);
      expect(await f.balanceOf(token, carol)).toBe(5n);
      expect(await f.balanceOf(token, bob)).toBe(40n);
    });

    it("validates the countries", async () => {
      const token = await f.newToken();
      await expectRevert(f.addModule(token, "CountryAllowListModule", encodeParams.countries([])), "EmptyList");
      await expectRevert(
        f.addModule(token, "CountryAllowListModule", encodeParams.countries([US, 0])),
        "InvalidCountryCode",
        [1n, 0],
      );
      await expectRevert(
        f.addModule(token, "CountryAllowListModule", encodeParams.countries([1000])),
        "InvalidCountryCode",
        [0n, 1000],
      );
      await expectRevert(
        f.addModule(token, "CountryAllowListModule", encodeParams.countries([US, DE, US])),
        "DuplicateEntry",
        [2n],
      );
    });
  });

  describe("country-block-list-v2", () => {
    it("refuses senders and recipients registered in a blocked country", async () => {
      const token = await f.newToken();
      await f.mint(token, bob, 50n);
      await f.mint(token, alice, 50n);
      await f.addModule(token, "CountryBlockListModule", encodeParams.countries([DE]));
      await expectRefusal(f, f.mint(token, bob, 1n), "CountryBlockListModule", "recipient country 276 blocked");
      await expectRefusal(f, f.transfer(token, 2, alice, 1n), "CountryBlockListModule", "sender country 276 blocked");
      await expectRefusal(f, f.transfer(token, 1, bob, 1n), "CountryBlockListModule", "recipient country 276 blocked");
      await f.mint(token, dave, 1n); // no country, not blocked
      await f.transfer(token, 1, carol, 1n);
      await f.burn(token, bob, 50n);
      expect(await f.balanceOf(token, bob)).toBe(0n);
      await expectRevert(
        f.setParams(token, "CountryBlockListModule", encodeParams.countries([DE, DE])),
        "DuplicateEntry",
        [1n],
      );
      await f.setParams(token, "CountryBlockListModule", encodeParams.countries([]));
      await f.mint(token, bob, 1n);
      expect(await f.balanceOf(token, bob)).toBe(1n);
    });
  });

  describe("identity-allow-list-v2 and identity-block-list-v2", () => {
    it("allows only recipients whose identity is listed", async () => {
      const token = await f.newToken();
      await f.addModule(token, "IdentityAllowListModule", encodeParams.addresses([identity(0xa1), identity(0xc0)]));
      await f.mint(token, alice, 10n);
      await f.transfer(token, 1, carol, 4n);
      await expectRefusal(f, f.mint(token, bob, 1n), "IdentityAllowListModule", "recipient identity not allowed");
      await expectRefusal(f, f.transfer(token, 1, dave, 1n), "IdentityAllowListModule", "recipient not registered");
      await expectRevert(f.setParams(token, "IdentityAllowListModule", encodeParams.addresses([])), "EmptyList");
      expect(await f.balanceOf(token, carol)).toBe(4n);
    });

    it("blocks senders and recipients whose identity is listed", async () => {
      const token = await f.newToken();
      await f.mint(token, alice, 10n);
      await f.mint(token, carol, 10n);
      await f.addModule(token, "IdentityBlockListModule", encodeParams.addresses([identity(0xc0)]));
      await expectRefusal(f, f.transfer(token, 1, carol, 1n), "IdentityBlockListModule", "recipient identity blocked");
      await expectRefusal(f, f.transfer(token, 3, alice, 1n), "IdentityBlockListModule", "sender identity blocked");
      await expectRefusal(f, f.mint(token, carol, 1n), "IdentityBlockListModule", "recipient identity blocked");
      await f.transfer(token, 1, dave, 1n);
      await f.burn(token, carol, 10n);
      expect(await f.balanceOf(token, dave)).toBe(1n);
      expect(await f.balanceOf(token, carol)).toBe(0n);
    });
  });

  describe("identity-verification-v2", () => {
    beforeAll(async () => {
      for (const [wallet, topic] of [
        [alice, KYC],
        [alice, AML],
        [bob, KYC],
        [carol, ACCREDITED],
      ] as const) {
        await f.write(0, f.registry, "MockIdentityRegistry", "setVerified", [wallet, topic, true]);
      }
    });

    it("requires every topic of an AND expression from the recipient", async () => {
      const token = await f.newToken();
      await f.addModule(
        token,
        "IdentityVerificationModule",
        encodeParams.expression([node.topic(KYC), node.topic(AML), node.and]),
      );
      await f.mint(token, alice, 10n);
      await expectRefusal(f, f.mint(token, bob, 1n), "IdentityVerificationModule", "recipient not verified");
      await expectRefusal(f, f.transfer(token, 1, carol, 1n), "IdentityVerificationModule", "recipient not verified");
      await expectRefusal(f, f.transfer(token, 1, dave, 1n), "IdentityVerificationModule", "recipient not registered");
      await f.burn(token, alice, 1n);
      expect(await f.balanceOf(token, alice)).toBe(9n);
    });

    it("evaluates OR and NOT: (KYC and AML) or ACCREDITED, and not-AML", async () => {
      const token = await f.newToken();
      const expression = [node.topic(KYC), node.topic(AML), node.and, node.topic(ACCREDITED), node.or];
      await f.addModule(token, "IdentityVerificationModule", encodeParams.expression(expression));
      expect(
        await f.read(f.modules.IdentityVerificationModule, "IdentityVerificationModule", "expressionOf", [token]),
      ).toEqual(expression);
      await f.mint(token, alice, 1n);
      await f.mint(token, carol, 1n);
      await expectRefusal(f, f.mint(token, bob, 1n), "IdentityVerificationModule", "recipient not verified");

      await f.setParams(token, "IdentityVerificationModule", encodeParams.expression([node.topic(AML), node.not]));
      await f.mint(token, bob, 1n);
      await expectRefusal(f, f.mint(token, alice, 1n), "IdentityVerificationModule", "recipient not verified");
    });

    it("with an empty expression requires registration only", async () => {
      const token = await f.newToken();
      await f.addModule(token, "IdentityVerificationModule", encodeParams.expression([]));
      await f.mint(token, carol, 1n);
      await expectRefusal(f, f.mint(token, dave, 1n), "IdentityVerificationModule", "recipient not registered");
    });

    it("rejects malformed expressions", async () => {
      const token = await f.newToken();
      const add = (nodes: { nodeType: number; value: bigint }[]) =>
        f.addModule(token, "IdentityVerificationModule", encodeParams.expression(nodes));
      await expectRevert(add([node.topic(KYC), node.and]), "MalformedExpression", [1n]);
      await expectRevert(add([node.not]), "MalformedExpression", [0n]);
      await expectRevert(add([node.topic(KYC), { nodeType: 4, value: 0n }]), "MalformedExpression", [1n]);
      await expectRevert(add([node.topic(KYC), node.topic(AML)]), "MalformedExpression", [2n]);
      const long = [node.topic(KYC), ...Array.from({ length: 32 }, () => node.not)];
      await expectRevert(add(long), "ExpressionTooLong", [33n, 32n]);
      await add(long.slice(0, 32)); // KYC and 31 NOTs: "not KYC"
      await f.mint(token, carol, 1n);
      await expectRefusal(f, f.mint(token, alice, 1n), "IdentityVerificationModule", "recipient not verified");
    });
  });
});
