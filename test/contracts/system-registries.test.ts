// The system's type registries (token factories, compliance modules, addons) and the external token
// registry: every register/update/remove path with its exact events, role checks and refusals.
import { type Address, encodeFunctionData, getAddress, type Hex, keccak256, toHex, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EIP170_LIMIT,
  expectRevert,
  ROLES,
  type SystemFixture,
  startSystemFixture,
  theEvent,
} from "./system-fixture.ts";

const typeIdOf = (name: string): Hex => keccak256(toHex(name));
const AM = "SystemAccessManager";
const NO_CODE = getAddress("0x000000000000000000000000000000000000dEaD");

let f: SystemFixture;
const impl: Record<string, Address> = {};

beforeAll(async () => {
  f = await startSystemFixture();
  for (const name of [
    "TokenFactoryRegistry",
    "ComplianceModuleRegistry",
    "AddonRegistry",
    "ExternalTokenRegistry",
    "Directory",
    "SystemAccessManager",
  ]) {
    impl[name] = await f.deploy(name, [f.forwarder]);
  }
  await f.send(0, f.accessManager, AM, "grantRoles", [
    f.manager,
    [ROLES.SYSTEM_MANAGER, ROLES.TOKEN_MANAGER, ROLES.COMPLIANCE_MANAGER, ROLES.ADDON_MANAGER],
  ]);
});
afterAll(async () => {
  await f?.chain.stop();
});

const hasRole = (role: Hex, account: Address) => f.read<boolean>(f.accessManager, AM, "hasRole", [role, account]);

describe("TokenFactoryRegistry", () => {
  const R = "TokenFactoryRegistry";
  let registry: Address;
  let factoryImpl: Address;
  let tokenImpl: Address;
  let otherTokenImpl: Address;
  const bond = typeIdOf("bond");
  const factoryInit = (system: Address, token: Address) =>
    encodeFunctionData({
      abi: f.chain.abi("MockSystemTokenFactory"),
      functionName: "initialize",
      args: [system, token],
    });

  beforeAll(async () => {
    registry = await f.clone(R, impl[R], [f.accessManager]);
    factoryImpl = await f.deploy("MockSystemTokenFactory");
    tokenImpl = await f.deploy("MockERC20", ["Impl", "IMPL", 18]);
    otherTokenImpl = await f.deploy("MockERC20", ["Impl2", "IMPL2", 18]);
  });

  it("needs SYSTEM_MODULE_ROLE to grant its factories their role", async () => {
    await expectRevert(
      f.send(1, registry, R, "registerTokenType", [
        "bond",
        tokenImpl,
        factoryImpl,
        factoryInit(f.cloner, tokenImpl),
        false,
      ]),
      "AccessControlUnauthorizedAccount",
      [registry, ROLES.SYSTEM_MODULE],
    );
    await f.send(0, f.accessManager, AM, "grantRole", [ROLES.SYSTEM_MODULE, registry]);
  });

  it("registers a type: clones and initialises its factory, grants its role, emits every field", async () => {
    const { logs, timestamp } = await f.send(1, registry, R, "registerTokenType", [
      "bond",
      tokenImpl,
      factoryImpl,
      factoryInit(f.cloner, tokenImpl),
      false,
    ]);
    const event = theEvent(logs, "TokenTypeRegistered");
    const factory = event.factory as Address;
    expect(event).toEqual({
      sender: f.manager,
      typeId: bond,
      factory,
      name: "bond",
      implementation: tokenImpl,
      factoryImplementation: factoryImpl,
      registeredAt: timestamp,
      isExperimental: false,
    });
    expect(theEvent(logs, "RoleGranted")).toEqual({
      role: ROLES.TOKEN_FACTORY_MODULE,
      account: factory,
      sender: registry,
    });
    expect(await f.read(factory, "MockSystemTokenFactory", "system")).toBe(f.cloner);
    expect(await f.read(factory, "MockSystemTokenFactory", "tokenImplementation")).toBe(tokenImpl);
    expect(await hasRole(ROLES.TOKEN_FACTORY_MODULE, factory)).toBe(true);
    expect(await f.read(registry, R, "isFactory", [factory])).toBe(true);
    expect(await f.read(registry, R, "factoryOf", [bond])).toBe(factory);
    expect(await f.read(registry, R, "typeIdOfFactory", [factory])).toBe(bond);
    expect(await f.read(registry, R, "typeIds")).toEqual([bond]);
    expect(await f.read(registry, R, "tokenType", [bond])).toEqual({
      name: "bond",
      implementation: tokenImpl,
      factoryImplementation: factoryImpl,
      factory,
      registeredAt: timestamp,
      isExperimental: false,
    });
  });

  it("refuses a duplicate, an empty name, a code-less implementation and outsiders", async () => {
    const init = factoryInit(f.cloner, tokenImpl);
    await expectRevert(
      f.send(1, registry, R, "registerTokenType", ["bond", tokenImpl, factoryImpl, init, true]),
      "TokenTypeAlreadyRegistered",
      [bond, "bond"],
    );
    await expectRevert(
      f.send(1, registry, R, "registerTokenType", ["", tokenImpl, factoryImpl, init, false]),
      "EmptyTypeName",
      [],
    );
    await expectRevert(
      f.send(1, registry, R, "registerTokenType", ["equity", NO_CODE, factoryImpl, init, false]),
      "InvalidImplementation",
      [NO_CODE],
    );
    await expectRevert(
      f.send(1, registry, R, "registerTokenType", ["equity", tokenImpl, NO_CODE, init, false]),
      "InvalidImplementation",
      [NO_CODE],
    );
    await expectRevert(
      f.send(2, registry, R, "registerTokenType", ["equity", tokenImpl, factoryImpl, init, false]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.SYSTEM_MANAGER],
    );
  });

  it("updates a type's implementation and experimental flag", async () => {
    const { logs } = await f.send(1, registry, R, "updateTokenType", [bond, otherTokenImpl, true]);
    expect(theEvent(logs, "TokenTypeUpdated")).toEqual({
      sender: f.manager,
      typeId: bond,
      implementation: otherTokenImpl,
      isExperimental: true,
    });
    const stored = await f.read<{ implementation: Address; isExperimental: boolean }>(registry, R, "tokenType", [bond]);
    expect([stored.implementation, stored.isExperimental]).toEqual([otherTokenImpl, true]);
    await expectRevert(
      f.send(1, registry, R, "updateTokenType", [typeIdOf("fund"), otherTokenImpl, true]),
      "TokenTypeNotRegistered",
      [typeIdOf("fund")],
    );
    await expectRevert(
      f.send(2, registry, R, "updateTokenType", [bond, otherTokenImpl, false]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.SYSTEM_MANAGER],
    );
  });

  it("removes a type and revokes its factory's role", async () => {
    const factory = await f.read<Address>(registry, R, "factoryOf", [bond]);
    await expectRevert(f.send(2, registry, R, "removeTokenType", [bond]), "AccessControlUnauthorizedAccount", [
      f.outsider,
      ROLES.SYSTEM_MANAGER,
    ]);
    const { logs } = await f.send(1, registry, R, "removeTokenType", [bond]);
    expect(theEvent(logs, "TokenTypeRemoved")).toEqual({ sender: f.manager, typeId: bond, factory });
    expect(theEvent(logs, "RoleRevoked")).toEqual({
      role: ROLES.TOKEN_FACTORY_MODULE,
      account: factory,
      sender: registry,
    });
    expect(await f.read(registry, R, "isFactory", [factory])).toBe(false);
    expect(await f.read(registry, R, "typeIds")).toEqual([]);
    await expectRevert(f.send(1, registry, R, "removeTokenType", [bond]), "TokenTypeNotRegistered", [bond]);
  });
});

describe("ComplianceModuleRegistry", () => {
  const R = "ComplianceModuleRegistry";
  let registry: Address;
  let countryModule: Address;
  let countryModule2: Address;
  let cappedModule: Address;
  const country = typeIdOf("country-allow-list-v2");

  beforeAll(async () => {
    registry = await f.clone(R, impl[R], [f.accessManager]);
    countryModule = await f.deploy("MockSystemComplianceModule", ["country-allow-list-v2"]);
    countryModule2 = await f.deploy("MockSystemComplianceModule", ["country-allow-list-v2"]);
    cappedModule = await f.deploy("MockSystemComplianceModule", ["capped-v2"]);
  });

  it("registers a module under its own typeId() name", async () => {
    const { logs, timestamp } = await f.send(1, registry, R, "registerComplianceModule", [countryModule, false]);
    expect(theEvent(logs, "ComplianceModuleTypeRegistered")).toEqual({
      sender: f.manager,
      typeId: country,
      implementation: countryModule,
      name: "country-allow-list-v2",
      registeredAt: timestamp,
      isExperimental: false,
    });
    expect(await f.read(registry, R, "complianceModuleType", [country])).toEqual({
      name: "country-allow-list-v2",
      implementation: countryModule,
      registeredAt: timestamp,
      isExperimental: false,
    });
    expect(await f.read(registry, R, "isRegisteredModule", [countryModule])).toBe(true);
    expect(await f.read(registry, R, "moduleOf", [country])).toBe(countryModule);
    expect(await f.read(registry, R, "typeIds")).toEqual([country]);
  });

  it("refuses a duplicate type, a module already registered, non-modules and outsiders", async () => {
    await expectRevert(
      f.send(1, registry, R, "registerComplianceModule", [countryModule2, false]),
      "ComplianceModuleTypeAlreadyRegistered",
      [country, "country-allow-list-v2"],
    );
    await expectRevert(
      f.send(1, registry, R, "registerComplianceModule", [NO_CODE, false]),
      "InvalidComplianceModule",
      [NO_CODE],
    );
    await expectRevert(
      f.send(1, registry, R, "registerComplianceModule", [f.forwarder, false]),
      "InvalidComplianceModule",
      [f.forwarder],
    );
    await expectRevert(
      f.send(2, registry, R, "registerComplianceModule", [cappedModule, true]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.COMPLIANCE_MANAGER],
    );
  });

  it("repoints a type at another deployment of the same module type only", async () => {
    const { logs } = await f.send(1, registry, R, "updateComplianceModuleType", [country, countryModule2, true]);
    expect(theEvent(logs, "ComplianceModuleTypeUpdated")).toEqual({
      sender: f.manager,
      typeId: country,
      implementation: countryModule2,
      isExperimental: true,
    });
    expect(await f.read(registry, R, "isRegisteredModule", [countryModule])).toBe(false);
    expect(await f.read(registry, R, "isRegisteredModule", [countryModule2])).toBe(true);
    await expectRevert(
      f.send(1, registry, R, "updateComplianceModuleType", [country, cappedModule, true]),
      "ComplianceModuleTypeMismatch",
      [country, "capped-v2"],
    );
    await expectRevert(
      f.send(1, registry, R, "updateComplianceModuleType", [typeIdOf("capped-v2"), cappedModule, true]),
      "ComplianceModuleTypeNotRegistered",
      [typeIdOf("capped-v2")],
    );
  });

  it("removes a type", async () => {
    await f.send(1, registry, R, "registerComplianceModule", [cappedModule, true]);
    await expectRevert(
      f.send(2, registry, R, "removeComplianceModuleType", [country]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.COMPLIANCE_MANAGER],
    );
    const { logs } = await f.send(1, registry, R, "removeComplianceModuleType", [country]);
    expect(theEvent(logs, "ComplianceModuleTypeRemoved")).toEqual({
      sender: f.manager,
      typeId: country,
      implementation: countryModule2,
    });
    expect(await f.read(registry, R, "isRegisteredModule", [countryModule2])).toBe(false);
    expect(await f.read(registry, R, "typeIds")).toEqual([typeIdOf("capped-v2")]);
  });
});

describe("AddonRegistry", () => {
  const R = "AddonRegistry";
  const FACTORY = 1;
  const SINGLETON = 2;
  let registry: Address;
  let factoryImpl: Address;
  let instanceImpl: Address;
  let singletonImpl: Address;
  const xvp = typeIdOf("xvp-settlement");
  const yieldType = typeIdOf("fixed-yield-schedule");
  const init = (label: string) =>
    encodeFunctionData({ abi: f.chain.abi("MockSystemAddon"), functionName: "initialize", args: [label] });

  beforeAll(async () => {
    registry = await f.clone(R, impl[R], [f.accessManager]);
    await f.send(0, f.accessManager, AM, "grantRole", [ROLES.SYSTEM_MODULE, registry]);
    factoryImpl = await f.deploy("MockSystemAddon", [3n]);
    instanceImpl = await f.deploy("MockSystemAddon", [1n]);
    singletonImpl = await f.deploy("MockSystemAddon", [0n]);
  });

  it("registers a factory type and a singleton type with every catalogue field", async () => {
    const factoryType = await f.send(1, registry, R, "registerAddonType", [
      "xvp-settlement",
      FACTORY,
      factoryImpl,
      instanceImpl,
      false,
    ]);
    expect(theEvent(factoryType.logs, "AddonTypeRegistered")).toEqual({
      sender: f.manager,
      typeId: xvp,
      name: "xvp-settlement",
      kind: FACTORY,
      factoryImplementation: factoryImpl,
      instanceImplementation: instanceImpl,
      registeredAt: factoryType.timestamp,
      isExperimental: false,
    });
    const singletonType = await f.send(1, registry, R, "registerAddonType", [
      "fixed-yield-schedule",
      SINGLETON,
      singletonImpl,
      zeroAddress,
      true,
    ]);
    expect(theEvent(singletonType.logs, "AddonTypeRegistered")).toEqual({
      sender: f.manager,
      typeId: yieldType,
      name: "fixed-yield-schedule",
      kind: SINGLETON,
      factoryImplementation: singletonImpl,
      instanceImplementation: zeroAddress,
      registeredAt: singletonType.timestamp,
      isExperimental: true,
    });
    expect(await f.read(registry, R, "typeIds")).toEqual([xvp, yieldType]);
  });

  it("refuses duplicates, inconsistent implementations and outsiders", async () => {
    await expectRevert(
      f.send(1, registry, R, "registerAddonType", ["xvp-settlement", FACTORY, factoryImpl, instanceImpl, false]),
      "AddonTypeAlreadyRegistered",
      [xvp, "xvp-settlement"],
    );
    await expectRevert(
      f.send(1, registry, R, "registerAddonType", ["token-sale", FACTORY, factoryImpl, NO_CODE, false]),
      "InvalidImplementation",
      [NO_CODE],
    );
    await expectRevert(
      f.send(1, registry, R, "registerAddonType", ["token-sale", SINGLETON, singletonImpl, instanceImpl, false]),
      "UnexpectedInstanceImplementation",
      [SINGLETON, instanceImpl],
    );
    await expectRevert(
      f.send(1, registry, R, "registerAddonType", ["", SINGLETON, singletonImpl, zeroAddress, false]),
      "EmptyName",
      [],
    );
    await expectRevert(
      f.send(2, registry, R, "registerAddonType", ["token-sale", SINGLETON, singletonImpl, zeroAddress, false]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.ADDON_MANAGER],
    );
  });

  it("creates a factory addon: clone, init, role and the addon factory list item", async () => {
    const { logs } = await f.send(1, registry, R, "createAddon", [xvp, "XvP Settlement Factory", init("xvp")]);
    const event = theEvent(logs, "AddonFactoryCreated");
    const addon = event.addon as Address;
    expect(event).toEqual({
      sender: f.manager,
      addon,
      typeId: xvp,
      name: "XvP Settlement Factory",
      typeName: "xvp-settlement",
      kind: FACTORY,
      systemAddonImplementation: zeroAddress,
      factoryImplementation: factoryImpl,
      instanceImplementation: instanceImpl,
      version: 3n,
    });
    expect(theEvent(logs, "RoleGranted")).toEqual({
      role: ROLES.ADDON_FACTORY_MODULE,
      account: addon,
      sender: registry,
    });
    expect(await f.read(addon, "MockSystemAddon", "label")).toBe("xvp");
    expect(await f.read(registry, R, "addon", [addon])).toEqual([
      "XvP Settlement Factory",
      xvp,
      "xvp-settlement",
      FACTORY,
      3n,
    ]);
    expect(await f.read(registry, R, "isAddon", [addon])).toBe(true);
    expect(await f.read(registry, R, "addonOf", [xvp])).toBe(addon);
    expect(await f.read(registry, R, "instanceImplementationOf", [addon])).toBe(instanceImpl);
  });

  it("creates a singleton addon with version 1 when it reports none", async () => {
    const { logs } = await f.send(1, registry, R, "createAddon", [yieldType, "Fixed Yield", init("fy")]);
    const event = theEvent(logs, "AddonFactoryCreated");
    expect(event).toEqual({
      sender: f.manager,
      addon: event.addon,
      typeId: yieldType,
      name: "Fixed Yield",
      typeName: "fixed-yield-schedule",
      kind: SINGLETON,
      systemAddonImplementation: singletonImpl,
      factoryImplementation: singletonImpl,
      instanceImplementation: zeroAddress,
      version: 1n,
    });
  });

  it("refuses a second addon of a type, unknown types and outsiders", async () => {
    const existing = await f.read<Address>(registry, R, "addonOf", [xvp]);
    await expectRevert(f.send(1, registry, R, "createAddon", [xvp, "Again", init("again")]), "AddonAlreadyCreated", [
      xvp,
      existing,
    ]);
    await expectRevert(
      f.send(1, registry, R, "createAddon", [typeIdOf("token-sale"), "Sale", init("s")]),
      "AddonTypeNotRegistered",
      [typeIdOf("token-sale")],
    );
    await expectRevert(
      f.send(2, registry, R, "createAddon", [xvp, "Again", init("again")]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.ADDON_MANAGER],
    );
  });

  it("updates a type's implementations, which factories read back", async () => {
    const addon = await f.read<Address>(registry, R, "addonOf", [xvp]);
    const newInstance = await f.deploy("MockSystemAddon", [2n]);
    const { logs } = await f.send(1, registry, R, "updateAddonType", [xvp, factoryImpl, newInstance, true]);
    expect(theEvent(logs, "AddonTypeUpdated")).toEqual({
      sender: f.manager,
      typeId: xvp,
      factoryImplementation: factoryImpl,
      instanceImplementation: newInstance,
      isExperimental: true,
    });
    expect(await f.read(registry, R, "instanceImplementationOf", [addon])).toBe(newInstance);
    await expectRevert(
      f.send(1, registry, R, "updateAddonType", [yieldType, singletonImpl, newInstance, false]),
      "UnexpectedInstanceImplementation",
      [SINGLETON, newInstance],
    );
  });

  it("removes an addon (revoking its role), then its type", async () => {
    const addon = await f.read<Address>(registry, R, "addonOf", [xvp]);
    await expectRevert(f.send(1, registry, R, "removeAddonType", [xvp]), "AddonTypeInUse", [xvp, addon]);
    await expectRevert(f.send(2, registry, R, "removeAddon", [addon]), "AccessControlUnauthorizedAccount", [
      f.outsider,
      ROLES.ADDON_MANAGER,
    ]);
    const removed = await f.send(1, registry, R, "removeAddon", [addon]);
    expect(theEvent(removed.logs, "AddonFactoryRemoved")).toEqual({ sender: f.manager, addon, typeId: xvp });
    expect(theEvent(removed.logs, "RoleRevoked")).toEqual({
      role: ROLES.ADDON_FACTORY_MODULE,
      account: addon,
      sender: registry,
    });
    expect(await f.read(registry, R, "isAddon", [addon])).toBe(false);
    await expectRevert(f.send(1, registry, R, "removeAddon", [addon]), "AddonNotRegistered", [addon]);

    const typeRemoved = await f.send(1, registry, R, "removeAddonType", [xvp]);
    expect(theEvent(typeRemoved.logs, "AddonTypeRemoved")).toEqual({ sender: f.manager, typeId: xvp });
    expect(await f.read(registry, R, "typeIds")).toEqual([yieldType]);
  });
});

describe("ExternalTokenRegistry", () => {
  const R = "ExternalTokenRegistry";
  let registry: Address;
  let oracle: Address;
  let eurc: Address;
  let regulated: Address;
  let smart: Address;
  let bytes32Token: Address;
  let managedToken: Address;

  const reason = (token: Address) => f.read<number>(registry, R, "blockingReason", [token]);

  beforeAll(async () => {
    oracle = await f.deploy("MockSystemManagedOracle");
    registry = await f.clone(R, impl[R], [f.accessManager, oracle]);
    eurc = await f.deploy("MockERC20", ["Euro Coin", "EURC", 6]);
    await f.send(0, eurc, "MockERC20", "mint", [f.manager, 2_500_000n]);
    regulated = await f.deploy("MockSystemERC3643Token");
    smart = await f.deploy("MockSystemSmartToken");
    bytes32Token = await f.deploy("MockSystemBytes32Token");
    managedToken = await f.deploy("MockERC20", ["Platform", "PLAT", 18]);
    await f.send(0, oracle, "MockSystemManagedOracle", "setSystemManaged", [managedToken, true]);
  });

  it("classifies addresses: eligible, no-code, system-managed", async () => {
    expect(await reason(eurc)).toBe(0);
    expect(await reason(NO_CODE)).toBe(1);
    expect(await reason(managedToken)).toBe(3);
    expect(await reason(f.accessManager)).toBe(3);
    expect(await reason(registry)).toBe(3);
    expect(await f.read(registry, R, "detectInterfaces", [eurc])).toBe(1);
    expect(await f.read(registry, R, "detectInterfaces", [regulated])).toBe(3);
    expect(await f.read(registry, R, "detectInterfaces", [smart])).toBe(7);
    expect(await f.read(registry, R, "detectInterfaces", [f.forwarder])).toBe(0);
    expect(await f.read(registry, R, "detectInterfaces", [NO_CODE])).toBe(0);
  });

  it("registers an OpenZeppelin ERC-20 with its metadata and detected interfaces", async () => {
    const { logs, timestamp } = await f.send(1, registry, R, "registerToken", [eurc, "stablecoin"]);
    expect(theEvent(logs, "ExternalTokenRegistered")).toEqual({
      sender: f.manager,
      token: eurc,
      tokenType: "stablecoin",
      name: "Euro Coin",
      symbol: "EURC",
      decimals: 6,
      detectedInterfaces: ["ERC20"],
      registeredAt: timestamp,
      totalSupply: 2_500_000n,
      paused: false,
    });
    expect(await f.read(registry, R, "externalToken", [eurc])).toEqual({
      tokenType: "stablecoin",
      name: "Euro Coin",
      symbol: "EURC",
      decimals: 6,
      detectedInterfaces: 1,
      registeredAt: timestamp,
      registeredBy: f.manager,
    });
    expect(await reason(eurc)).toBe(2);
    expect(await f.read(registry, R, "tokens")).toEqual([eurc]);
  });

  it("refuses no-code, already-registered and system-managed addresses with their own errors", async () => {
    await expectRevert(f.send(1, registry, R, "registerToken", [NO_CODE, "other"]), "ExternalTokenNoCode", [NO_CODE]);
    await expectRevert(
      f.send(1, registry, R, "registerToken", [eurc, "stablecoin"]),
      "ExternalTokenAlreadyRegistered",
      [eurc],
    );
    await expectRevert(f.send(1, registry, R, "registerToken", [managedToken, "bond"]), "ExternalTokenSystemManaged", [
      managedToken,
    ]);
    await expectRevert(
      f.send(1, registry, R, "registerToken", [f.accessManager, "other"]),
      "ExternalTokenSystemManaged",
      [f.accessManager],
    );
    await expectRevert(f.send(1, registry, R, "registerToken", [regulated, ""]), "EmptyTokenType", []);
    await expectRevert(
      f.send(2, registry, R, "registerToken", [regulated, "equity"]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.TOKEN_MANAGER],
    );
  });

  it("detects ERC-3643 and SMART tokens", async () => {
    const erc3643 = await f.send(1, registry, R, "registerToken", [regulated, "equity"]);
    expect(theEvent(erc3643.logs, "ExternalTokenRegistered")).toMatchObject({
      name: "Regulated",
      symbol: "REG",
      decimals: 18,
      detectedInterfaces: ["ERC20", "ERC3643"],
    });
    const smartToken = await f.send(1, registry, R, "registerToken", [smart, "bond"]);
    expect(theEvent(smartToken.logs, "ExternalTokenRegistered")).toMatchObject({
      name: "Smart",
      symbol: "SMRT",
      detectedInterfaces: ["ERC20", "ERC3643", "SMART"],
    });
  });

  it("reads bytes32 metadata and defaults decimals to 18; accepts a non-token contract with nothing detected", async () => {
    const old = await f.send(1, registry, R, "registerToken", [bytes32Token, "cryptocurrency"]);
    expect(theEvent(old.logs, "ExternalTokenRegistered")).toMatchObject({
      name: "Maker",
      symbol: "MKR",
      decimals: 18,
      detectedInterfaces: ["ERC20"],
    });
    const notToken = await f.send(1, registry, R, "registerToken", [f.forwarder, "other"]);
    expect(theEvent(notToken.logs, "ExternalTokenRegistered")).toMatchObject({
      name: "",
      symbol: "",
      decimals: 18,
      detectedInterfaces: [],
    });
  });

  it("updates a token's type and unregisters it, after which it is eligible again", async () => {
    const updated = await f.send(1, registry, R, "updateTokenType", [eurc, "deposit"]);
    expect(theEvent(updated.logs, "ExternalTokenTypeUpdated")).toEqual({
      sender: f.manager,
      token: eurc,
      tokenType: "deposit",
    });
    await expectRevert(f.send(2, registry, R, "unregisterToken", [eurc]), "AccessControlUnauthorizedAccount", [
      f.outsider,
      ROLES.TOKEN_MANAGER,
    ]);
    const removed = await f.send(1, registry, R, "unregisterToken", [eurc]);
    expect(theEvent(removed.logs, "ExternalTokenUnregistered")).toEqual({ sender: f.manager, token: eurc });
    expect(await reason(eurc)).toBe(0);
    expect(await f.read(registry, R, "tokens")).not.toContain(eurc);
    await expectRevert(f.send(1, registry, R, "unregisterToken", [eurc]), "ExternalTokenNotRegistered", [eurc]);
    await expectRevert(f.send(1, registry, R, "updateTokenType", [eurc, "bond"]), "ExternalTokenNotRegistered", [eurc]);
  });

  it("registers through the forwarder with the signer as sender and registeredBy", async () => {
    const { logs } = await f.forward(1, 3, registry, R, "registerToken", [eurc, "stablecoin"]);
    expect(theEvent(logs, "ExternalTokenRegistered")).toMatchObject({ sender: f.manager, token: eurc });
    expect((await f.read<{ registeredBy: Address }>(registry, R, "externalToken", [eurc])).registeredBy).toBe(
      f.manager,
    );
  });

  it("lets the system manager replace the system-managed oracle", async () => {
    await expectRevert(
      f.send(2, registry, R, "setSystemManagedOracle", [zeroAddress]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.SYSTEM_MANAGER],
    );
    const { logs } = await f.send(1, registry, R, "setSystemManagedOracle", [zeroAddress]);
    expect(theEvent(logs, "SystemManagedOracleUpdated")).toEqual({ sender: f.manager, oracle: zeroAddress });
    expect(await reason(managedToken)).toBe(0);
  });
});

describe("bytecode sizes", () => {
  it("keeps every system implementation under the EIP-170 limit", async () => {
    const forwarderCode = await f.chain.publicClient.getCode({ address: f.forwarder });
    const sizes: Record<string, number> = { Forwarder: ((forwarderCode?.length ?? 2) - 2) / 2 };
    for (const [name, address] of Object.entries(impl)) {
      const code = await f.chain.publicClient.getCode({ address });
      sizes[name] = ((code?.length ?? 2) - 2) / 2;
    }
    for (const [name, size] of Object.entries(sizes)) {
      expect(size, name).toBeGreaterThan(0);
      expect(size, name).toBeLessThan(EIP170_LIMIT);
    }
  });
});
