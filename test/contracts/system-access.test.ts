// System access manager (roles, batches), the ERC-2771 forwarder and the directory, on a bare anvil.
import { type Address, getAddress, type Hex, keccak256, toHex, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventsNamed,
  expectRevert,
  ROLES,
  type SystemFixture,
  signForwardRequest,
  startSystemFixture,
  theEvent,
} from "./system-fixture.ts";

const key = (field: string): Hex => keccak256(toHex(field));
const AM = "SystemAccessManager";
const SPEC_DIRECTORY_FIELDS = [
  "systemImplementation",
  "systemAccessManagerImplementation",
  "forwarder",
  "systemFactory",
  "identityFactory",
  "identityFactoryImplementation",
  "identityImplementation",
  "contractIdentityImplementation",
  "complianceImplementation",
  "identityRegistryImplementation",
  "identityRegistryStorageImplementation",
  "trustedIssuersRegistryImplementation",
  "trustedIssuersMetaRegistryImplementation",
  "topicSchemeRegistryImplementation",
  "tokenAccessManagerImplementation",
  "tokenFactoryRegistryImplementation",
  "complianceModuleRegistryImplementation",
  "addonRegistryImplementation",
  "identityVerificationComplianceModule",
  "externalTokenRegistryImplementation",
];
const REGISTRY_LINKS = ["tokenFactoryRegistry", "complianceModuleRegistry", "addonRegistry", "externalTokenRegistry"];

let f: SystemFixture;
let accessManager: Address;

beforeAll(async () => {
  f = await startSystemFixture();
  accessManager = f.accessManager;
});
afterAll(async () => {
  await f?.chain.stop();
});

const hasRole = (role: Hex, account: Address) => f.read<boolean>(accessManager, AM, "hasRole", [role, account]);

describe("SystemAccessManager", () => {
  it("initializes once with the given admins and the module role hierarchy", async () => {
    expect(await hasRole(ROLES.DEFAULT_ADMIN, f.admin)).toBe(true);
    expect(await hasRole(ROLES.DEFAULT_ADMIN, f.manager)).toBe(false);
    expect(await f.read(accessManager, AM, "getRoleAdmin", [ROLES.TOKEN_FACTORY_MODULE])).toBe(ROLES.SYSTEM_MODULE);
    expect(await f.read(accessManager, AM, "getRoleAdmin", [ROLES.ADDON_FACTORY_MODULE])).toBe(ROLES.SYSTEM_MODULE);
    expect(await f.read(accessManager, AM, "getRoleAdmin", [ROLES.IDENTITY_REGISTRY_MODULE])).toBe(ROLES.SYSTEM_MODULE);
    expect(await f.read(accessManager, AM, "getRoleAdmin", [ROLES.SYSTEM_MANAGER])).toBe(ROLES.DEFAULT_ADMIN);
    expect(await f.read(accessManager, AM, "trustedForwarder")).toBe(f.forwarder);
    await expectRevert(f.send(0, accessManager, AM, "initialize", [[f.outsider]]), "InvalidInitialization", []);
  });

  it("refuses an implementation initialize and an empty admin list", async () => {
    const impl = await f.deploy(AM, [f.forwarder]);
    await expectRevert(f.send(0, impl, AM, "initialize", [[f.admin]]), "InvalidInitialization", []);
    await expectRevert(f.clone(AM, impl, [[]]), "NoInitialAdmin", []);
  });

  it("grants one role to many accounts, each with a RoleGranted carrying the sender", async () => {
    const { logs } = await f.send(0, accessManager, AM, "grantRoleBatch", [
      ROLES.TOKEN_MANAGER,
      [f.manager, f.outsider],
    ]);
    expect(eventsNamed(logs, "RoleGranted").map((l) => l.args)).toEqual([
      { role: ROLES.TOKEN_MANAGER, account: f.manager, sender: f.admin },
      { role: ROLES.TOKEN_MANAGER, account: f.outsider, sender: f.admin },
    ]);
    expect(await hasRole(ROLES.TOKEN_MANAGER, f.outsider)).toBe(true);

    const revoked = await f.send(0, accessManager, AM, "revokeRoleBatch", [ROLES.TOKEN_MANAGER, [f.outsider]]);
    expect(theEvent(revoked.logs, "RoleRevoked")).toEqual({
      role: ROLES.TOKEN_MANAGER,
      account: f.outsider,
      sender: f.admin,
    });
    expect(await hasRole(ROLES.TOKEN_MANAGER, f.outsider)).toBe(false);
  });

  it("grants and revokes many roles for one account", async () => {
    const roles = [ROLES.SYSTEM_MANAGER, ROLES.COMPLIANCE_MANAGER, ROLES.ADDON_MANAGER, ROLES.CLAIM_POLICY_MANAGER];
    const { logs } = await f.send(0, accessManager, AM, "grantRoles", [f.manager, roles]);
    expect(eventsNamed(logs, "RoleGranted").map((l) => l.args.role)).toEqual(roles);
    for (const r of roles) expect(await hasRole(r, f.manager)).toBe(true);

    const revoked = await f.send(0, accessManager, AM, "revokeRoles", [f.manager, [ROLES.CLAIM_POLICY_MANAGER]]);
    expect(theEvent(revoked.logs, "RoleRevoked")).toEqual({
      role: ROLES.CLAIM_POLICY_MANAGER,
      account: f.manager,
      sender: f.admin,
    });
    expect(await f.read(accessManager, AM, "hasAnyRole", [[ROLES.CLAIM_POLICY_MANAGER], f.manager])).toBe(false);
    expect(
      await f.read(accessManager, AM, "hasAnyRole", [[ROLES.CLAIM_POLICY_MANAGER, ROLES.ADDON_MANAGER], f.manager]),
    ).toBe(true);
  });

  it("refuses batches from accounts without the role's admin role, and empty batches", async () => {
    await expectRevert(
      f.send(2, accessManager, AM, "grantRoleBatch", [ROLES.TOKEN_MANAGER, [f.outsider]]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.DEFAULT_ADMIN],
    );
    await expectRevert(
      f.send(2, accessManager, AM, "grantRoles", [f.outsider, [ROLES.SYSTEM_MANAGER]]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.DEFAULT_ADMIN],
    );
    await expectRevert(
      f.send(2, accessManager, AM, "revokeRoleBatch", [ROLES.SYSTEM_MANAGER, [f.manager]]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.DEFAULT_ADMIN],
    );
    await expectRevert(f.send(0, accessManager, AM, "grantRoleBatch", [ROLES.TOKEN_MANAGER, []]), "EmptyBatch", []);
    await expectRevert(f.send(0, accessManager, AM, "revokeRoles", [f.manager, []]), "EmptyBatch", []);
  });

  it("lets only system modules hand out the factory module roles", async () => {
    await expectRevert(
      f.send(0, accessManager, AM, "grantRole", [ROLES.TOKEN_FACTORY_MODULE, f.outsider]),
      "AccessControlUnauthorizedAccount",
      [f.admin, ROLES.SYSTEM_MODULE],
    );
    await f.send(0, accessManager, AM, "grantRole", [ROLES.SYSTEM_MODULE, f.relayer]);
    const { logs } = await f.send(3, accessManager, AM, "grantRole", [ROLES.TOKEN_FACTORY_MODULE, f.outsider]);
    expect(theEvent(logs, "RoleGranted")).toEqual({
      role: ROLES.TOKEN_FACTORY_MODULE,
      account: f.outsider,
      sender: f.relayer,
    });
    await f.send(0, accessManager, AM, "revokeRole", [ROLES.SYSTEM_MODULE, f.relayer]);
  });
});

describe("Forwarder (ERC-2771)", () => {
  it("relays a signed request so the target sees the signer as _msgSender", async () => {
    // The relayer has no admin role: only the forwarded signer (the admin) can grant.
    await expectRevert(
      f.send(3, accessManager, AM, "grantRole", [ROLES.IDENTITY_MANAGER, f.outsider]),
      "AccessControlUnauthorizedAccount",
      [f.relayer, ROLES.DEFAULT_ADMIN],
    );
    const nonceBefore = await f.read<bigint>(f.forwarder, "Forwarder", "nonces", [f.admin]);
    const { logs } = await f.forward(0, 3, accessManager, AM, "grantRole", [ROLES.IDENTITY_MANAGER, f.outsider]);
    expect(theEvent(logs, "RoleGranted")).toEqual({
      role: ROLES.IDENTITY_MANAGER,
      account: f.outsider,
      sender: f.admin,
    });
    expect(theEvent(logs, "ExecutedForwardRequest")).toEqual({ signer: f.admin, nonce: nonceBefore, success: true });
    expect(await hasRole(ROLES.IDENTITY_MANAGER, f.outsider)).toBe(true);
    expect(await f.read(f.forwarder, "Forwarder", "nonces", [f.admin])).toBe(nonceBefore + 1n);
  });

  it("fails the relay when the signer lacks the role, without spending the nonce", async () => {
    const nonceBefore = await f.read<bigint>(f.forwarder, "Forwarder", "nonces", [f.outsider]);
    await expectRevert(
      f.forward(2, 3, accessManager, AM, "grantRole", [ROLES.IDENTITY_MANAGER, f.outsider]),
      "FailedCall",
      [],
    );
    expect(await f.read(f.forwarder, "Forwarder", "nonces", [f.outsider])).toBe(nonceBefore);
  });

  it("refuses a request signed by someone else than `from`", async () => {
    const request = await signForwardRequest(
      f.chain,
      f.forwarder,
      2,
      accessManager,
      AM,
      "grantRole",
      [ROLES.IDENTITY_MANAGER, f.outsider],
      { from: f.admin },
    );
    await expectRevert(f.send(3, f.forwarder, "Forwarder", "execute", [request]), "ERC2771ForwarderInvalidSigner", [
      f.outsider,
      f.admin,
    ]);
  });

  it("refuses a target that does not trust the forwarder", async () => {
    const erc20 = await f.deploy("MockERC20", ["Plain", "PLN", 18]);
    await expectRevert(f.forward(0, 3, erc20, "MockERC20", "mint", [f.admin, 1n]), "ERC2771UntrustfulTarget", [
      erc20,
      f.forwarder,
    ]);
  });
});

describe("Directory", () => {
  let directory: Address;
  let initialEvents: Record<string, unknown>[];

  beforeAll(async () => {
    const impl = await f.deploy("Directory", [f.forwarder]);
    const cloned = await f.cloneWithLogs("Directory", impl, [
      accessManager,
      [key("forwarder"), key("systemFactory")],
      [f.forwarder, f.cloner],
    ]);
    directory = cloned.address;
    initialEvents = eventsNamed(cloned.logs, "DirectoryEntrySet").map((l) => l.args);
    await f.send(0, accessManager, AM, "grantRole", [ROLES.SYSTEM_MANAGER, f.manager]);
  });

  it("knows every field of the spec's directory and the registry links, nothing else", async () => {
    for (const field of [...SPEC_DIRECTORY_FIELDS, ...REGISTRY_LINKS]) {
      expect(await f.read(directory, "Directory", "isKnownKey", [key(field)]), field).toBe(true);
    }
    expect(await f.read(directory, "Directory", "isKnownKey", [key("systemImplementations")])).toBe(false);
    const [keys] = await f.read<[Hex[], Address[]]>(directory, "Directory", "entries");
    expect(keys).toEqual([...SPEC_DIRECTORY_FIELDS, ...REGISTRY_LINKS].map(key));
  });

  it("records initial entries with one event each (sender: the initializing contract)", async () => {
    expect(initialEvents).toEqual([
      { sender: f.cloner, key: key("forwarder"), value: f.forwarder },
      { sender: f.cloner, key: key("systemFactory"), value: f.cloner },
    ]);
    expect(await f.read(directory, "Directory", "entry", [key("forwarder")])).toBe(f.forwarder);
    expect(await f.read(directory, "Directory", "entry", [key("systemFactory")])).toBe(f.cloner);
    expect(await f.read(directory, "Directory", "accessManager")).toBe(accessManager);
  });

  it("lets the system manager set one entry, then many, each with an event", async () => {
    const impl = getAddress("0x00000000000000000000000000000000000000a1");
    const one = await f.send(1, directory, "Directory", "setEntry", [key("systemImplementation"), impl]);
    expect(theEvent(one.logs, "DirectoryEntrySet")).toEqual({
      sender: f.manager,
      key: key("systemImplementation"),
      value: impl,
    });

    const fields = ["identityImplementation", "contractIdentityImplementation", "externalTokenRegistryImplementation"];
    const values = [
      getAddress("0x00000000000000000000000000000000000000b1"),
      getAddress("0x00000000000000000000000000000000000000b2"),
      getAddress("0x00000000000000000000000000000000000000b3"),
    ];
    const many = await f.send(1, directory, "Directory", "setEntries", [fields.map(key), values]);
    expect(eventsNamed(many.logs, "DirectoryEntrySet").map((l) => l.args)).toEqual(
      fields.map((field, i) => ({ sender: f.manager, key: key(field), value: values[i] })),
    );
    const [keys, entries] = await f.read<[Hex[], Address[]]>(directory, "Directory", "entries");
    expect(entries[keys.indexOf(key("contractIdentityImplementation"))]).toBe(values[1]);

    const cleared = await f.send(1, directory, "Directory", "setEntry", [key("systemImplementation"), zeroAddress]);
    expect(theEvent(cleared.logs, "DirectoryEntrySet").value).toBe(zeroAddress);
  });

  it("refuses outsiders, unknown keys and mismatched batches", async () => {
    await expectRevert(
      f.send(2, directory, "Directory", "setEntry", [key("forwarder"), f.outsider]),
      "AccessControlUnauthorizedAccount",
      [f.outsider, ROLES.SYSTEM_MANAGER],
    );
    await expectRevert(
      f.send(1, directory, "Directory", "setEntry", [key("systemImplementations"), f.outsider]),
      "UnknownDirectoryKey",
      [key("systemImplementations")],
    );
    await expectRevert(f.send(1, directory, "Directory", "setEntries", [[key("forwarder")], []]), "LengthMismatch", [
      1n,
      0n,
    ]);
  });

  it("accepts a system module (the System contract) as well as the system manager", async () => {
    await f.send(0, accessManager, AM, "grantRole", [ROLES.SYSTEM_MODULE, f.relayer]);
    const { logs } = await f.send(3, directory, "Directory", "setEntry", [key("identityFactory"), f.cloner]);
    expect(theEvent(logs, "DirectoryEntrySet")).toEqual({
      sender: f.relayer,
      key: key("identityFactory"),
      value: f.cloner,
    });
    await f.send(0, accessManager, AM, "revokeRole", [ROLES.SYSTEM_MODULE, f.relayer]);
  });

  it("takes the signer as sender for a forwarded change", async () => {
    const { logs } = await f.forward(1, 3, directory, "Directory", "setEntry", [key("forwarder"), f.forwarder]);
    expect(theEvent(logs, "DirectoryEntrySet")).toEqual({
      sender: f.manager,
      key: key("forwarder"),
      value: f.forwarder,
    });
  });
});
