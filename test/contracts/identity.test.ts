// Identities (ERC-734 keys, ERC-735 claims, claim issuing and revocation), contract identities and the factory.
import { type Address, encodeFunctionData, getAddress, type Hex, zeroAddress, zeroHash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestChain, type TestChain } from "../support/chain.ts";
import {
  ACTION,
  addressKey,
  CLAIM,
  claimData,
  claimIdOf,
  cloneOf,
  createIdentity,
  deployIdentityStack,
  ECDSA_KEY,
  eventsOf,
  expectRevert,
  IDENTITY_MANAGER_ROLE,
  type IdentityStack,
  MANAGEMENT,
  read,
  signClaim,
  topicId,
} from "./identity-fixture.ts";

let chain: TestChain;
let stack: IdentityStack;
const KYC = topicId("KYC");

beforeAll(async () => {
  chain = await startTestChain();
  stack = await deployIdentityStack(chain);
});
afterAll(async () => {
  await chain?.stop();
});

const idAbi = () => chain.abi("Identity");
const factoryAbi = () => chain.abi("IdentityFactory");

describe("IdentityFactory", () => {
  it("creates a wallet identity at the predicted address, emits IdentityCreated and announces it", async () => {
    const wallet = chain.accounts[1];
    const predicted = await read<Address>(chain, stack.factory, factoryAbi(), "predictIdentityAddress", [
      wallet,
      false,
    ]);
    const hash = await chain.write(0, stack.factory, factoryAbi(), "createIdentity", [wallet, []]);
    const [created] = await eventsOf(chain, hash, factoryAbi(), "IdentityCreated");
    expect(created.args).toEqual({ sender: chain.accounts[0], wallet, identity: predicted });
    const [announced] = await eventsOf(chain, hash, chain.abi("MockIdentityAnnouncer"), "IdentityAnnounced");
    expect(announced.args).toEqual({
      factory: stack.factory,
      sender: chain.accounts[0],
      account: wallet,
      identity: predicted,
      isContract: false,
    });
    expect(await read(chain, stack.factory, factoryAbi(), "getIdentity", [wallet])).toBe(predicted);
    expect(await read(chain, predicted, idAbi(), "getKeysByPurpose", [MANAGEMENT])).toEqual([addressKey(wallet)]);

    await expectRevert(
      chain.write(0, stack.factory, factoryAbi(), "createIdentity", [wallet, []]),
      "IdentityAlreadyExists",
      [wallet, predicted],
    );
  });

  it("lets a wallet create its own identity; anyone else needs IDENTITY_MANAGER_ROLE", async () => {
    await expectRevert(
      chain.write(4, stack.factory, factoryAbi(), "createIdentity", [chain.accounts[3], []]),
      "AccessControlUnauthorizedAccount",
      [chain.accounts[4], IDENTITY_MANAGER_ROLE],
    );
    const hash = await chain.write(4, stack.factory, factoryAbi(), "createIdentity", [chain.accounts[4], []]);
    const [created] = await eventsOf(chain, hash, factoryAbi(), "IdentityCreated");
    expect(created.args.sender).toBe(chain.accounts[4]);
    expect(created.args.wallet).toBe(chain.accounts[4]);
  });

  it("adds the extra management keys next to the wallet's", async () => {
    const extra = addressKey(chain.accounts[0]);
    const identity = await createIdentity(chain, stack.factory, chain.accounts[2], [extra]);
    const keys = await read<Hex[]>(chain, identity, idAbi(), "getKeysByPurpose", [MANAGEMENT]);
    expect(keys).toEqual([addressKey(chain.accounts[2]), extra]);
  });

  it("creates a claim issuer identity in one call: the wallet's key is MANAGEMENT and CLAIM, its claims valid", async () => {
    const wallet = chain.accounts[4];
    await expectRevert(
      chain.write(4, stack.factory, factoryAbi(), "createClaimIssuerIdentity", [chain.accounts[3]]),
      "AccessControlUnauthorizedAccount",
      [wallet, IDENTITY_MANAGER_ROLE],
    );
    const other = chain.accounts[3];
    const hash = await chain.write(0, stack.factory, factoryAbi(), "createClaimIssuerIdentity", [other]);
    const [created] = await eventsOf(chain, hash, factoryAbi(), "IdentityCreated");
    const issuer = created.args.identity as Address;
    expect(created.args).toEqual({ sender: chain.accounts[0], wallet: other, identity: issuer });
    const [announced] = await eventsOf(chain, hash, chain.abi("MockIdentityAnnouncer"), "IdentityAnnounced");
    expect(announced.args).toMatchObject({ account: other, identity: issuer, isContract: false });
    expect((await eventsOf(chain, hash, idAbi(), "KeyAdded")).map((e) => e.args.purpose)).toEqual([MANAGEMENT, CLAIM]);
    expect(await read(chain, issuer, idAbi(), "getKeyPurposes", [addressKey(other)])).toEqual([MANAGEMENT, CLAIM]);

    const subject = chain.accounts[2]; // any address: isClaimValid checks the signature and the signer's CLAIM key
    const data = claimData("kyc:ok");
    const signature = await signClaim(chain, 3, subject, KYC, data);
    expect(await read(chain, issuer, idAbi(), "isClaimValid", [subject, KYC, signature, data])).toBe(true);
    await expectRevert(
      chain.write(0, issuer, idAbi(), "initializeClaimIssuer", [chain.accounts[0], []]),
      "InvalidInitialization",
    );
    await expectRevert(
      chain.write(0, stack.factory, factoryAbi(), "createClaimIssuerIdentity", [other]),
      "IdentityAlreadyExists",
      [other, issuer],
    );
  });

  it("creates a contract identity (by a manager or the contract itself), announced with isContract", async () => {
    const contract = stack.announcer; // any contract will do
    const manager = chain.accounts[3];
    await expectRevert(
      chain.write(0, stack.factory, factoryAbi(), "createContractIdentity", [chain.accounts[3], manager]),
      "NotAContract",
      [chain.accounts[3]],
    );
    const hash = await chain.write(0, stack.factory, factoryAbi(), "createContractIdentity", [contract, manager]);
    const [created] = await eventsOf(chain, hash, factoryAbi(), "ContractIdentityCreated");
    const identity = created.args.identity as Address;
    expect(created.args).toEqual({ sender: chain.accounts[0], contractAddress: contract, identity, manager });
    expect(identity).toBe(await read(chain, stack.factory, factoryAbi(), "predictIdentityAddress", [contract, true]));
    const [announced] = await eventsOf(chain, hash, chain.abi("MockIdentityAnnouncer"), "IdentityAnnounced");
    expect(announced.args).toMatchObject({ account: contract, identity, isContract: true });
    const ciAbi = chain.abi("ContractIdentity");
    expect(await read(chain, identity, ciAbi, "subject")).toBe(contract);
    expect(await read(chain, identity, ciAbi, "manager")).toBe(manager);

    // A contract creating its own identity: a wallet identity (a contract) calls the factory through execute.
    const self = await read<Address>(chain, stack.factory, factoryAbi(), "getIdentity", [chain.accounts[1]]);
    const call = encodeFunctionData({
      abi: factoryAbi(),
      functionName: "createContractIdentity",
      args: [self, chain.accounts[1]],
    });
    const execHash = await chain.write(1, self, idAbi(), "execute", [stack.factory, 0n, call]);
    const [own] = await eventsOf(chain, execHash, factoryAbi(), "ContractIdentityCreated");
    expect(own.args).toMatchObject({ sender: self, contractAddress: self, manager: chain.accounts[1] });
  });

  it("implementations and clones refuse a second initialisation", async () => {
    const impl = await read<Address>(chain, stack.factory, factoryAbi(), "identityImplementation");
    await expectRevert(chain.write(0, impl, idAbi(), "initialize", [chain.accounts[0], []]), "InvalidInitialization");
    const identity = await read<Address>(chain, stack.factory, factoryAbi(), "getIdentity", [chain.accounts[1]]);
    await expectRevert(
      chain.write(0, identity, idAbi(), "initialize", [chain.accounts[0], []]),
      "InvalidInitialization",
    );
  });
});

describe("Identity keys (ERC-734)", () => {
  let identity: Address;
  const owner = 1;

  beforeAll(async () => {
    identity = await read<Address>(chain, stack.factory, factoryAbi(), "getIdentity", [chain.accounts[owner]]);
  });

  it("adds keys by purpose with KeyAdded, and refuses duplicates and non-managers", async () => {
    const key = addressKey(chain.accounts[3]);
    const hash = await chain.write(owner, identity, idAbi(), "addKey", [key, CLAIM, ECDSA_KEY]);
    const [added] = await eventsOf(chain, hash, idAbi(), "KeyAdded");
    expect(added.args).toEqual({ key, purpose: CLAIM, keyType: ECDSA_KEY });
    expect(await read(chain, identity, idAbi(), "keyHasPurpose", [key, CLAIM])).toBe(true);
    expect(await read(chain, identity, idAbi(), "keyHasPurpose", [key, MANAGEMENT])).toBe(false);
    expect(await read(chain, identity, idAbi(), "getKeysByPurpose", [CLAIM])).toEqual([key]);
    await chain.write(owner, identity, idAbi(), "addKey", [key, ACTION, ECDSA_KEY]);
    expect(await read(chain, identity, idAbi(), "getKeyPurposes", [key])).toEqual([CLAIM, ACTION]);
    expect(await read(chain, identity, idAbi(), "getKey", [key])).toEqual([[CLAIM, ACTION], ECDSA_KEY, key]);

    await expectRevert(
      chain.write(owner, identity, idAbi(), "addKey", [key, CLAIM, ECDSA_KEY]),
      "KeyAlreadyHasPurpose",
      [key, CLAIM],
    );
    await expectRevert(
      chain.write(4, identity, idAbi(), "addKey", [addressKey(chain.accounts[4]), MANAGEMENT, ECDSA_KEY]),
      "KeyPurposeRequired",
      [chain.accounts[4], MANAGEMENT],
    );
    // A CLAIM key is not a management key.
    await expectRevert(
      chain.write(3, identity, idAbi(), "addKey", [addressKey(chain.accounts[4]), CLAIM, ECDSA_KEY]),
      "KeyPurposeRequired",
      [chain.accounts[3], MANAGEMENT],
    );
  });

  it("removes keys with KeyRemoved, never the last management key", async () => {
    const key = addressKey(chain.accounts[3]);
    const hash = await chain.write(owner, identity, idAbi(), "removeKey", [key, ACTION]);
    const [removed] = await eventsOf(chain, hash, idAbi(), "KeyRemoved");
    expect(removed.args).toEqual({ key, purpose: ACTION, keyType: ECDSA_KEY });
    expect(await read(chain, identity, idAbi(), "getKeyPurposes", [key])).toEqual([CLAIM]);
    await expectRevert(chain.write(owner, identity, idAbi(), "removeKey", [key, ACTION]), "KeyDoesNotHavePurpose", [
      key,
      ACTION,
    ]);
    const ownerKey = addressKey(chain.accounts[owner]);
    await expectRevert(
      chain.write(owner, identity, idAbi(), "removeKey", [ownerKey, MANAGEMENT]),
      "LastManagementKey",
      [ownerKey],
    );
  });

  it("executes calls: MANAGEMENT on itself, ACTION on other contracts only", async () => {
    const actionWallet = chain.accounts[4];
    const addAction = encodeFunctionData({
      abi: idAbi(),
      functionName: "addKey",
      args: [addressKey(actionWallet), ACTION, ECDSA_KEY],
    });
    const hash = await chain.write(owner, identity, idAbi(), "execute", [identity, 0n, addAction]);
    const events = await eventsOf(chain, hash, idAbi());
    expect(events.map((e) => e.eventName)).toEqual(["ExecutionRequested", "KeyAdded", "Executed"]);
    expect(events[2].args).toEqual(events[0].args);
    expect(events[2].args).toMatchObject({ to: identity, value: 0n, data: addAction });

    await expectRevert(chain.write(4, identity, idAbi(), "execute", [identity, 0n, addAction]), "KeyPurposeRequired", [
      actionWallet,
      MANAGEMENT,
    ]);
    const announce = encodeFunctionData({
      abi: chain.abi("MockIdentityAnnouncer"),
      functionName: "announceIdentity",
      args: [actionWallet, actionWallet, actionWallet, false],
    });
    const ok = await chain.write(4, identity, idAbi(), "execute", [stack.announcer, 0n, announce]);
    const [relayed] = await eventsOf(chain, ok, chain.abi("MockIdentityAnnouncer"), "IdentityAnnounced");
    expect(relayed.args.factory).toBe(identity); // msg.sender is the identity
    const [requested, executed] = await eventsOf(chain, ok, idAbi());
    expect(executed.args.executionId).toBe((events[0].args.executionId as bigint) + 1n);
    expect(requested.args).toEqual(executed.args);
    // A failing call reverts with the callee's error (the factory's, decoded through the ABI that knows it):
    // the identity is not an identity manager.
    const duplicate = encodeFunctionData({
      abi: factoryAbi(),
      functionName: "createIdentity",
      args: [chain.accounts[1], []],
    });
    await expectRevert(
      chain.write(4, identity, [...idAbi(), ...factoryAbi()], "execute", [stack.factory, 0n, duplicate]),
      "AccessControlUnauthorizedAccount",
      [identity, IDENTITY_MANAGER_ROLE],
    );
  });
});

describe("Claims (ERC-735) and claim issuing", () => {
  const holder = 1; // the subject's management wallet
  const issuerOwner = 2; // the issuer identity's management wallet
  const signer = 3; // a CLAIM key of the issuer
  let subject: Address;
  let issuer: Address;

  beforeAll(async () => {
    subject = await read<Address>(chain, stack.factory, factoryAbi(), "getIdentity", [chain.accounts[holder]]);
    issuer = await read<Address>(chain, stack.factory, factoryAbi(), "getIdentity", [chain.accounts[issuerOwner]]);
    await chain.write(issuerOwner, issuer, idAbi(), "addKey", [addressKey(chain.accounts[signer]), CLAIM, ECDSA_KEY]);
  });

  it("adds, changes and removes a claim with the exact ERC-735 events", async () => {
    const data = claimData("kyc:level-2");
    const signature = await signClaim(chain, signer, subject, KYC, data);
    const claimId = claimIdOf(issuer, KYC);
    expect(await read(chain, issuer, idAbi(), "isClaimValid", [subject, KYC, signature, data])).toBe(true);

    const added = await chain.write(holder, subject, idAbi(), "addClaim", [
      KYC,
      1n,
      issuer,
      signature,
      data,
      "ipfs://a",
    ]);
    const [addedEvent] = await eventsOf(chain, added, idAbi(), "ClaimAdded");
    expect(addedEvent.args).toEqual({ claimId, topic: KYC, scheme: 1n, issuer, signature, data, uri: "ipfs://a" });
    expect(await read(chain, subject, idAbi(), "getClaim", [claimId])).toEqual([
      KYC,
      1n,
      issuer,
      signature,
      data,
      "ipfs://a",
    ]);
    expect(await read(chain, subject, idAbi(), "getClaimIdsByTopic", [KYC])).toEqual([claimId]);

    const data2 = claimData("kyc:level-3");
    const signature2 = await signClaim(chain, signer, subject, KYC, data2);
    const changed = await chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, issuer, signature2, data2, ""]);
    const changedEvents = await eventsOf(chain, changed, idAbi());
    expect(changedEvents.map((e) => e.eventName)).toEqual(["ClaimChanged"]);
    expect(changedEvents[0].args).toEqual({
      claimId,
      topic: KYC,
      scheme: 1n,
      issuer,
      signature: signature2,
      data: data2,
      uri: "",
    });
    expect(await read(chain, subject, idAbi(), "getClaimIdsByTopic", [KYC])).toEqual([claimId]);

    const removed = await chain.write(holder, subject, idAbi(), "removeClaim", [claimId]);
    const [removedEvent] = await eventsOf(chain, removed, idAbi(), "ClaimRemoved");
    expect(removedEvent.args).toEqual({
      claimId,
      topic: KYC,
      scheme: 1n,
      issuer,
      signature: signature2,
      data: data2,
      uri: "",
    });
    expect(await read(chain, subject, idAbi(), "getClaimIdsByTopic", [KYC])).toEqual([]);
    expect(await read(chain, subject, idAbi(), "getClaim", [claimId])).toEqual([0n, 0n, zeroAddress, "0x", "0x", ""]);
    await expectRevert(chain.write(holder, subject, idAbi(), "removeClaim", [claimId]), "ClaimNotFound", [claimId]);
  });

  it("refuses claims the issuer does not vouch for, and callers without a CLAIM or MANAGEMENT key", async () => {
    const data = claimData("kyc");
    const forged = await signClaim(chain, 4, subject, KYC, data); // account 4 holds no CLAIM key on the issuer
    await expectRevert(
      chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, issuer, forged, data, ""]),
      "InvalidClaim",
      [issuer, KYC],
    );
    const otherSubject = await signClaim(chain, signer, issuer, KYC, data); // signed for another subject
    await expectRevert(
      chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, issuer, otherSubject, data, ""]),
      "InvalidClaim",
      [issuer, KYC],
    );
    await expectRevert(
      chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, chain.accounts[4], forged, data, ""]),
      "InvalidClaim",
      [chain.accounts[4], KYC],
    );
    const good = await signClaim(chain, signer, subject, KYC, data);
    await expectRevert(
      chain.write(4, subject, idAbi(), "addClaim", [KYC, 1n, issuer, good, data, ""]),
      "KeyPurposeRequired",
      [chain.accounts[4], CLAIM],
    );
  });

  it("revokes a claim by id (ClaimRevoked with subject, claimId, topic) and by signature", async () => {
    const data = claimData("kyc:revocable");
    const signature = await signClaim(chain, signer, subject, KYC, data);
    await chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, issuer, signature, data, ""]);
    const claimId = claimIdOf(issuer, KYC);

    await expectRevert(chain.write(4, issuer, idAbi(), "revokeClaim", [claimId, subject]), "KeyPurposeRequired", [
      chain.accounts[4],
      CLAIM,
    ]);
    const hash = await chain.write(signer, issuer, idAbi(), "revokeClaim", [claimId, subject]);
    const [revoked] = await eventsOf(chain, hash, idAbi(), "ClaimRevoked");
    expect(revoked.args).toEqual({ sender: chain.accounts[signer], subject, claimId, topic: KYC, signature });
    expect(getAddress(revoked.address)).toBe(issuer);
    expect(await read(chain, issuer, idAbi(), "isClaimRevoked", [signature])).toBe(true);
    expect(await read(chain, issuer, idAbi(), "isClaimValid", [subject, KYC, signature, data])).toBe(false);
    await expectRevert(
      chain.write(issuerOwner, issuer, idAbi(), "revokeClaim", [claimId, subject]),
      "ClaimAlreadyRevoked",
      [signature],
    );
    // Revoked claims cannot be re-attached.
    await expectRevert(
      chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, issuer, signature, data, ""]),
      "InvalidClaim",
      [issuer, KYC],
    );

    const other = await signClaim(chain, signer, subject, KYC, claimData("never attached"));
    const bySig = await chain.write(issuerOwner, issuer, idAbi(), "revokeClaimBySignature", [other]);
    const [bySigEvent] = await eventsOf(chain, bySig, idAbi(), "ClaimRevoked");
    expect(bySigEvent.args).toEqual({
      sender: chain.accounts[issuerOwner],
      subject: zeroAddress,
      claimId: zeroHash,
      topic: 0n,
      signature: other,
    });

    // A claim another issuer put there cannot be revoked through this one.
    const foreign = await read<Address>(chain, stack.factory, factoryAbi(), "getIdentity", [chain.accounts[4]]);
    await expectRevert(
      chain.write(issuerOwner, issuer, idAbi(), "revokeClaim", [claimIdOf(foreign, KYC), subject]),
      "ClaimNotIssuedBy",
      [issuer, subject, claimIdOf(foreign, KYC)],
    );
  });

  it("a removed CLAIM key no longer makes its signatures valid", async () => {
    const data = claimData("kyc:key-rotation");
    const signature = await signClaim(chain, signer, subject, KYC, data);
    expect(await read(chain, issuer, idAbi(), "isClaimValid", [subject, KYC, signature, data])).toBe(true);
    await chain.write(issuerOwner, issuer, idAbi(), "removeKey", [addressKey(chain.accounts[signer]), CLAIM]);
    expect(await read(chain, issuer, idAbi(), "isClaimValid", [subject, KYC, signature, data])).toBe(false);
    await chain.write(issuerOwner, issuer, idAbi(), "addKey", [addressKey(chain.accounts[signer]), CLAIM, ECDSA_KEY]);
  });
});

describe("ContractIdentity", () => {
  it("lets the manager or the contract change claims and the manager; others are refused", async () => {
    const ciAbi = chain.abi("ContractIdentity");
    const identity = await read<Address>(chain, stack.factory, factoryAbi(), "getIdentity", [stack.announcer]);
    const issuer = await read<Address>(chain, stack.factory, factoryAbi(), "getIdentity", [chain.accounts[2]]);
    const data = claimData("asset:bond");
    const signature = await signClaim(chain, 3, identity, KYC, data);

    await expectRevert(
      chain.write(4, identity, ciAbi, "addClaim", [KYC, 1n, issuer, signature, data, ""]),
      "NotIdentityManager",
      [chain.accounts[4]],
    );
    const hash = await chain.write(3, identity, ciAbi, "addClaim", [KYC, 1n, issuer, signature, data, ""]);
    const [added] = await eventsOf(chain, hash, ciAbi, "ClaimAdded");
    expect(added.args).toMatchObject({ claimId: claimIdOf(issuer, KYC), topic: KYC, issuer, signature, data });

    const moved = await chain.write(3, identity, ciAbi, "setManager", [chain.accounts[4]]);
    const [changed] = await eventsOf(chain, moved, ciAbi, "ManagerChanged");
    expect(changed.args).toEqual({
      sender: chain.accounts[3],
      previousManager: chain.accounts[3],
      newManager: chain.accounts[4],
    });
    await expectRevert(chain.write(3, identity, ciAbi, "removeClaim", [claimIdOf(issuer, KYC)]), "NotIdentityManager", [
      chain.accounts[3],
    ]);
    await chain.write(4, identity, ciAbi, "removeClaim", [claimIdOf(issuer, KYC)]);
    expect(await read(chain, identity, ciAbi, "getClaimIdsByTopic", [KYC])).toEqual([]);
  });
});

describe("bytecode sizes", () => {
  it("every identity-layer contract deploys under the EIP-170 limit", async () => {
    const names = [
      "Identity",
      "ContractIdentity",
      "IdentityFactory",
      "IdentityRegistry",
      "IdentityRegistryStorage",
      "TrustedIssuersRegistry",
      "TrustedIssuersMetaRegistry",
      "TopicSchemeRegistry",
    ];
    const sizes: Record<string, number> = {};
    for (const name of names) {
      const address = await chain.deploy(name);
      const code = await chain.publicClient.getCode({ address });
      sizes[name] = ((code?.length ?? 2) - 2) / 2;
      expect(sizes[name], name).toBeGreaterThan(0);
      expect(sizes[name], name).toBeLessThan(24_576);
    }
    // A clone is the 45-byte EIP-1167 proxy.
    const clone = await cloneOf(chain, getAddress(stack.factory));
    expect(((await chain.publicClient.getCode({ address: clone }))?.length ?? 0) / 2 - 1).toBe(45);
    console.log("identity bytecode sizes", sizes);
  });
});
