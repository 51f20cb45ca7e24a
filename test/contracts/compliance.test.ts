// Compliance engine: module registry, per-token module lists, refusals naming the module, hooks, sizes.
import { type Address, encodeFunctionData, getAddress, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EIP170_LIMIT } from "../support/chain.ts";
import {
  type ComplianceFixture,
  encodeParams,
  expectRefusal,
  expectRevert,
  MODULE_NAMES,
  MODULE_TYPE_IDS,
  type ModuleName,
  setupCompliance,
} from "./compliance-fixture.ts";

describe("compliance engine", () => {
  let f: ComplianceFixture;
  let admin: Address;
  let alice: Address;
  let bob: Address;

  beforeAll(async () => {
    f = await setupCompliance();
    [admin, alice, bob] = f.chain.accounts;
  });
  afterAll(async () => {
    await f?.chain.stop();
  });

  it("keeps implementations uninitialisable and binds the clone to its system", async () => {
    await expectRevert(
      f.write(0, f.implementations.Compliance, "Compliance", "initialize", [f.accessControl, f.registry]),
      "InvalidInitialization",
    );
    await expectRevert(
      f.write(0, f.implementations.CappedModule, "CappedModule", "initialize", [f.engine, f.registry]),
      "InvalidInitialization",
    );
    await expectRevert(f.write(0, f.engine, "Compliance", "initialize", [admin, f.registry]), "InvalidInitialization");
    expect(getAddress(await f.read<Address>(f.engine, "Compliance", "accessControl"))).toBe(f.accessControl);
    expect(getAddress(await f.read<Address>(f.engine, "Compliance", "identityRegistry"))).toBe(f.registry);
    expect(await f.read(f.engine, "Compliance", "MAX_MODULES_PER_TOKEN")).toBe(32n);
  });

  it("reports the spec's type id and module set version for every module", async () => {
    for (const name of MODULE_NAMES) {
      expect(await f.read(f.modules[name], name, "typeId")).toBe(MODULE_TYPE_IDS[name]);
      expect(await f.read(f.modules[name], name, "moduleSetVersion")).toBe(name.startsWith("Legacy") ? 1 : 2);
      expect(await f.read(f.engine, "Compliance", "isRegisteredModule", [f.modules[name]])).toBe(true);
      expect(getAddress(await f.read<Address>(f.modules[name], name, "compliance"))).toBe(f.engine);
    }
  });

  it("registers modules only for system managers, bound to this engine, once", async () => {
    const module = await f.cloneModule("CappedModule");
    await expectRevert(f.write(1, f.engine, "Compliance", "registerModule", [module]), "NotSystemManager", [alice]);
    await expectRevert(f.write(0, f.engine, "Compliance", "registerModule", [bob]), "InvalidModule", [bob]);
    await expectRevert(f.write(0, f.engine, "Compliance", "registerModule", [f.registry]), "InvalidModule", [
      f.registry,
    ]);
    const foreign = await f.cloneModule("CappedModule", f.accessControl);
    await expectRevert(f.write(0, f.engine, "Compliance", "registerModule", [foreign]), "InvalidModule", [foreign]);

    const hash = await f.write(0, f.engine, "Compliance", "registerModule", [module]);
    expect((await f.events(hash, "Compliance", "ModuleRegistered")).map((e) => e.args)).toEqual([
      { sender: admin, module, typeId: "capped-v2", moduleSetVersion: 2 },
    ]);
    await expectRevert(f.write(0, f.engine, "Compliance", "registerModule", [module]), "ModuleAlreadyRegistered", [
      module,
    ]);

    const token = await f.newToken();
    const unregister = await f.write(0, f.engine, "Compliance", "unregisterModule", [module]);
    expect((await f.events(unregister, "Compliance", "ModuleUnregistered")).map((e) => e.args)).toEqual([
      { sender: admin, module },
    ]);
    await expectRevert(
      f.write(0, token, "MockComplianceToken", "addModule", [module, encodeParams.capped(1n)]),
      "UnknownModule",
      [module],
    );
    await expectRevert(f.write(0, f.engine, "Compliance", "unregisterModule", [module]), "ModuleNotRegistered", [
      module,
    ]);
    await expectRevert(f.write(1, f.engine, "Compliance", "unregisterModule", [module]), "NotSystemManager", [alice]);
  });

  it("lets the access-control contract itself register modules", async () => {
    const module = await f.cloneModule("CappedModule");
    // The system contract registers its own modules at creation: impersonate it.
    const { testClient, publicClient } = f.chain;
    await testClient.impersonateAccount({ address: f.accessControl });
    await testClient.setBalance({ address: f.accessControl, value: 10n ** 18n });
    const hash = await testClient.sendUnsignedTransaction({
      from: f.accessControl,
      to: f.engine,
      data: encodeFunctionData({ abi: f.abiOf("Compliance"), functionName: "registerModule", args: [module] }),
    });
    await testClient.stopImpersonatingAccount({ address: f.accessControl });
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await f.read(f.engine, "Compliance", "isRegisteredModule", [module])).toBe(true);
  });

  it("adds a module through the token, once, with its parameters and an event carrying the sender", async () => {
    const token = await f.newToken();
    const params = encodeParams.capped(1000n);
    const hash = await f.addModule(token, "CappedModule", params, 1);
    expect((await f.events(hash, "Compliance", "ModuleAdded")).map((e) => e.address)).toEqual([f.engine]);
    expect((await f.events(hash, "Compliance", "ModuleAdded")).map((e) => e.args)).toEqual([
      { sender: alice, token, module: f.modules.CappedModule, typeId: "capped-v2", params },
    ]);
    expect(await f.read(f.engine, "Compliance", "modulesOf", [token])).toEqual([f.modules.CappedModule]);
    expect(await f.read(f.engine, "Compliance", "moduleSetVersionOf", [token])).toBe(2);
    expect(await f.read(f.modules.CappedModule, "CappedModule", "parametersOf", [token])).toBe(params);
    await expectRevert(f.addModule(token, "CappedModule", params), "ModuleAlreadyAdded", [
      token,
      f.modules.CappedModule,
    ]);
    await expectRevert(f.write(0, token, "MockComplianceToken", "addModule", [zeroAddress, params]), "UnknownModule", [
      zeroAddress,
    ]);
    await expectRevert(f.write(0, token, "MockComplianceToken", "addModule", [bob, params]), "UnknownModule", [bob]);
  });

  it("updates and removes modules, keeping the order of the others", async () => {
    const token = await f.newToken();
    await f.addModule(token, "CappedModule", encodeParams.capped(1000n));
    await f.addModule(token, "AddressBlockListModule", encodeParams.addresses([]));
    await f.addModule(token, "TimeLockModule", encodeParams.timeLock(60n));

    const newParams = encodeParams.capped(5n);
    const update = await f.write(2, token, "MockComplianceToken", "setModuleParameters", [
      f.modules.CappedModule,
      newParams,
    ]);
    expect((await f.events(update, "Compliance", "ModuleParametersUpdated")).map((e) => e.args)).toEqual([
      { sender: bob, token, module: f.modules.CappedModule, params: newParams },
    ]);
    expect(await f.read(f.modules.CappedModule, "CappedModule", "maxSupplyOf", [token])).toBe(5n);

    const removal = await f.write(1, token, "MockComplianceToken", "removeModule", [f.modules.CappedModule]);
    expect((await f.events(removal, "Compliance", "ModuleRemoved")).map((e) => e.args)).toEqual([
      { sender: alice, token, module: f.modules.CappedModule },
    ]);
    expect(await f.read(f.engine, "Compliance", "modulesOf", [token])).toEqual([
      f.modules.AddressBlockListModule,
      f.modules.TimeLockModule,
    ]);
    expect(await f.read(f.modules.CappedModule, "CappedModule", "parametersOf", [token])).toBe("0x");
    expect(await f.read(f.modules.CappedModule, "CappedModule", "maxSupplyOf", [token])).toBe(0n);
    expect(await f.read(f.engine, "Compliance", "hasModule", [token, f.modules.CappedModule])).toBe(false);
    await f.mint(token, alice, 10n); // the cap no longer applies

    await expectRevert(
      f.write(0, token, "MockComplianceToken", "removeModule", [f.modules.CappedModule]),
      "ModuleNotAdded",
      [token, f.modules.CappedModule],
    );
    await expectRevert(
      f.write(0, token, "MockComplianceToken", "setModuleParameters", [f.modules.CappedModule, newParams]),
      "ModuleNotAdded",
      [token, f.modules.CappedModule],
    );
  });

  it("refuses to mix moduleSetVersion 1 and 2 modules on one token", async () => {
    const token = await f.newToken();
    await f.addModule(token, "CountryAllowListModule", encodeParams.countries([840]));
    await expectRevert(
      f.addModule(token, "LegacyInvestorCountModule", encodeParams.investorCount(10n, [], [])),
      "ModuleSetVersionMismatch",
      [token, 2, f.modules.LegacyInvestorCountModule, 1],
    );

    const legacy = await f.newToken();
    await f.addModule(legacy, "LegacyCountryAllowListModule", encodeParams.countries([840]));
    await f.addModule(legacy, "LegacyTransferApprovalModule", encodeParams.transferApproval([admin], 0n));
    expect(await f.read(f.engine, "Compliance", "moduleSetVersionOf", [legacy])).toBe(1);
    await expectRevert(f.addModule(legacy, "CappedModule", encodeParams.capped(1n)), "ModuleSetVersionMismatch", [
      legacy,
      1,
      f.modules.CappedModule,
      2,
    ]);

    // Once empty, the token may move to the other generation.
    await f.write(0, legacy, "MockComplianceToken", "removeModule", [f.modules.LegacyCountryAllowListModule]);
    await f.write(0, legacy, "MockComplianceToken", "removeModule", [f.modules.LegacyTransferApprovalModule]);
    expect(await f.read(f.engine, "Compliance", "moduleSetVersionOf", [legacy])).toBe(0);
    await f.addModule(legacy, "CappedModule", encodeParams.capped(1n));
    expect(await f.read(f.engine, "Compliance", "moduleSetVersionOf", [legacy])).toBe(2);
  });

  it("legacy modules apply the same rules under their v1 type id", async () => {
    const token = await f.newToken();
    await f.register(alice, 276);
    await f.addModule(token, "LegacyCountryAllowListModule", encodeParams.countries([840]));
    await expectRefusal(
      f,
      f.mint(token, alice, 1n),
      "LegacyCountryAllowListModule",
      "recipient country 276 not allowed",
    );
  });

  it("bounds the number of modules per token", async () => {
    const token = await f.newToken();
    const extra: Address[] = [];
    for (let i = 0; i < 33; i++) {
      const module = await f.cloneModule("CappedModule");
      await f.write(0, f.engine, "Compliance", "registerModule", [module]);
      extra.push(module);
    }
    for (const module of extra.slice(0, 32)) {
      await f.write(0, token, "MockComplianceToken", "addModule", [module, encodeParams.capped(100n)]);
    }
    await expectRevert(
      f.write(0, token, "MockComplianceToken", "addModule", [extra[32], encodeParams.capped(100n)]),
      "TooManyModules",
      [token, 32n],
    );
    // All 32 run on a mint.
    await f.mint(token, alice, 100n);
    expect(await f.balanceOf(token, alice)).toBe(100n);
  });

  it("names the first refusing module; canTransfer returns the same without reverting", async () => {
    const token = await f.newToken();
    await f.register(bob, 840);
    await f.addModule(token, "CappedModule", encodeParams.capped(100n));
    await f.addModule(token, "AddressBlockListModule", encodeParams.addresses([bob]));

    expect(await f.read(f.engine, "Compliance", "canTransfer", [token, zeroAddress, alice, 100n])).toEqual([
      true,
      zeroAddress,
      "",
      "",
    ]);
    // Both refuse; the capped module comes first.
    expect(await f.read(f.engine, "Compliance", "canTransfer", [token, zeroAddress, bob, 101n])).toEqual([
      false,
      f.modules.CappedModule,
      "capped-v2",
      "max supply 100 exceeded",
    ]);
    await expectRefusal(f, f.mint(token, bob, 101n), "CappedModule", "max supply 100 exceeded");
    await expectRevert(
      f.read(f.engine, "Compliance", "checkTransfer", [token, zeroAddress, bob, 1n]),
      "ComplianceCheckFailed",
      [f.modules.AddressBlockListModule, "address-block-list-v2", "recipient address blocked"],
    );
    await f.read(f.engine, "Compliance", "checkTransfer", [token, zeroAddress, alice, 1n]);
    expect(await f.balanceOf(token, bob)).toBe(0n);
  });

  it("lets only the engine change module state", async () => {
    const module = f.modules.InvestorCountModule;
    const name: ModuleName = "InvestorCountModule";
    await expectRevert(f.write(1, module, name, "setParameters", [alice, "0x"]), "OnlyCompliance", [alice]);
    await expectRevert(f.write(1, module, name, "clearParameters", [alice]), "OnlyCompliance", [alice]);
    await expectRevert(f.write(1, module, name, "transferred", [alice, alice, bob, 1n]), "OnlyCompliance", [alice]);
    await expectRevert(f.write(1, module, name, "created", [alice, bob, 1n]), "OnlyCompliance", [alice]);
    await expectRevert(f.write(1, module, name, "destroyed", [alice, bob, 1n]), "OnlyCompliance", [alice]);
  });

  it("keeps every deployed bytecode under the EIP-170 limit", async () => {
    const sizes: Record<string, number> = {};
    for (const [name, address] of Object.entries(f.implementations)) {
      const code = await f.chain.publicClient.getCode({ address });
      sizes[name] = (code!.length - 2) / 2;
    }
    const [largest, size] = Object.entries(sizes).sort((a, b) => b[1] - a[1])[0];
    console.log(`largest compliance bytecode: ${largest} ${size} bytes`);
    for (const [name, bytes] of Object.entries(sizes)) {
      expect(bytes, name).toBeGreaterThan(0);
      expect(bytes, name).toBeLessThan(EIP170_LIMIT);
    }
  });
});
