// A system as the root creates it in one transaction: every contract cloned, wired and announced; the
// compliance engine with every module; one-call identity onboarding; a token under a real module.
import { type Address, encodeAbiParameters, getAddress, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULE_CONTRACTS } from "../../scripts/contracts/platform-contracts.ts";
import { expectRevert, role } from "../support/chain.ts";
import { startTokenFixture, type TokenFixture } from "./token-fixture.ts";

let f: TokenFixture;
let contracts: Record<string, Address>;
beforeAll(async () => {
  f = await startTokenFixture();
  contracts = await f.read<Record<string, Address>>(f.system, f.chain.abi("System"), "contracts");
}, 120_000);
afterAll(() => f?.chain.stop());

describe("System creation", () => {
  it("creates every contract of the system, each with code, and grants the owner the manager roles", async () => {
    for (const [name, address] of Object.entries(contracts)) {
      expect(address, name).not.toBe(zeroAddress);
      expect(await f.chain.publicClient.getCode({ address }), name).not.toBe("0x");
    }
    expect(getAddress(contracts.tokenFactory)).toBe(getAddress(f.tokenFactory));
    const manager = contracts.accessManager;
    for (const name of [
      "SYSTEM_MANAGER_ROLE",
      "TOKEN_MANAGER_ROLE",
      "IDENTITY_MANAGER_ROLE",
      "COMPLIANCE_MANAGER_ROLE",
    ]) {
      expect(
        await f.read(manager, f.chain.abi("SystemAccessManager"), "hasRole", [role(name), f.chain.accounts[0]]),
        name,
      ).toBe(true);
      expect(await f.read(f.system, f.chain.abi("System"), "hasRole", [role(name), f.chain.accounts[1]]), name).toBe(
        false,
      );
    }
  });

  it("registers one module per control type in the compliance engine and the module registry", async () => {
    for (const typeId of Object.keys(MODULE_CONTRACTS)) {
      const module = await f.read<Address>(f.system, f.chain.abi("System"), "complianceModule", [typeId]);
      expect(module, typeId).not.toBe(zeroAddress);
      expect(
        await f.read(contracts.compliance, f.chain.abi("Compliance"), "isRegisteredModule", [module]),
        typeId,
      ).toBe(true);
    }
  });

  it("fills the directory with the system's registries and the root", async () => {
    const [keys, values] = await f.read<[string[], Address[]]>(
      contracts.directory,
      f.chain.abi("Directory"),
      "entries",
    );
    const entry = (name: string) => values[keys.indexOf(role(name))];
    expect(getAddress(entry("systemFactory"))).toBe(getAddress(f.systemFactory));
    expect(getAddress(entry("identityFactory"))).toBe(getAddress(contracts.identityFactory));
    expect(getAddress(entry("externalTokenRegistry"))).toBe(getAddress(contracts.externalTokenRegistry));
    expect(values.filter((v) => v === zeroAddress)).toHaveLength(1); // tokenAccessManagerImplementation: none yet
  });

  it("onboards a wallet in one call: identity created, announced by the root, registered with its country", async () => {
    const wallet = f.chain.accounts[3];
    const hash = await f.write(
      0,
      contracts.identityRegistry,
      f.chain.abi("IdentityRegistry"),
      "registerWalletIdentity",
      [wallet, 56],
    );
    const receipt = await f.receipt(hash);
    const [announced] = f.events(f.chain.abi("SystemFactory"), receipt, "IdentityCreated");
    expect(announced).toMatchObject({ system: f.system, account: wallet, isContract: false });
    const [registered] = f.events(f.chain.abi("IdentityRegistry"), receipt, "IdentityRegistered");
    expect(registered).toMatchObject({
      sender: f.chain.accounts[0],
      wallet,
      identity: announced.identity,
      country: 56,
    });
    // Custodial onboarding: the identity manager that onboarded the wallet also manages its identity (claims).
    const identity = announced.identity as Address;
    const key = (account: Address) => f.read(identity, f.chain.abi("Identity"), "addressKey", [account]);
    for (const manager of [wallet, f.chain.accounts[0]]) {
      expect(await f.read(identity, f.chain.abi("Identity"), "keyHasPurpose", [await key(manager), 1n])).toBe(true);
    }
    await expectRevert(
      f.write(1, contracts.identityRegistry, f.chain.abi("IdentityRegistry"), "registerWalletIdentity", [wallet, 56]),
      "AccessControlUnauthorizedAccount",
    );
  });

  it("runs a token under the system's country-allow-list-v2 module: registered Belgians pass, others are refused", async () => {
    const module = await f.read<Address>(f.system, f.chain.abi("System"), "complianceModule", [
      "country-allow-list-v2",
    ]);
    const { token } = await f.createToken({
      compliance: contracts.compliance,
      modules: [{ module, params: encodeAbiParameters([{ type: "uint16[]" }], [[56]]) }],
    });
    const [, , belgian, , american] = f.chain.accounts;
    await f.write(0, contracts.identityRegistry, f.chain.abi("IdentityRegistry"), "registerWalletIdentity", [
      belgian,
      56,
    ]);
    await f.write(0, contracts.identityRegistry, f.chain.abi("IdentityRegistry"), "registerWalletIdentity", [
      american,
      840,
    ]);
    await f.write(0, token, f.tokenAbi, "mint", [belgian, 5n]);
    await expectRevert(f.write(0, token, f.tokenAbi, "mint", [american, 5n]), "ComplianceCheckFailed");
  });
});
