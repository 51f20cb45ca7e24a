// Identity registry and storage, trusted issuers (system-wide and per subject), topic schemes, isVerified.
import { type Address, type Hex, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestChain, type TestChain } from "../support/chain.ts";
import {
  addressKey,
  CLAIM,
  CLAIM_POLICY_MANAGER_ROLE,
  claimData,
  claimIdOf,
  createIdentity,
  deployClone,
  deployIdentityStack,
  ECDSA_KEY,
  eventsOf,
  expectRevert,
  IDENTITY_MANAGER_ROLE,
  type IdentityStack,
  read,
  SYSTEM_MANAGER_ROLE,
  signClaim,
  topicId,
} from "./identity-fixture.ts";

let chain: TestChain;
let stack: IdentityStack;
let storage: Address;
let registry: Address;
let issuers: Address;
let topics: Address;

const KYC = topicId("KYC");
const AML = topicId("AML");
const BELGIUM = 56;
const NETHERLANDS = 528;
const OUTSIDER = 4;

const regAbi = () => chain.abi("IdentityRegistry");
const storeAbi = () => chain.abi("IdentityRegistryStorage");
const tirAbi = () => chain.abi("TrustedIssuersRegistry");
const metaAbi = () => chain.abi("TrustedIssuersMetaRegistry");
const topicAbi = () => chain.abi("TopicSchemeRegistry");
const idAbi = () => chain.abi("Identity");

beforeAll(async () => {
  chain = await startTestChain();
  stack = await deployIdentityStack(chain);
  const ac = stack.accessControl;
  issuers = await deployClone(chain, "TrustedIssuersRegistry", [ac]);
  topics = await deployClone(chain, "TopicSchemeRegistry", [ac]);
  storage = await deployClone(chain, "IdentityRegistryStorage", [ac, zeroAddress]);
  registry = await deployClone(chain, "IdentityRegistry", [ac, storage, issuers, zeroAddress]);
  await chain.write(0, storage, storeAbi(), "bindIdentityRegistry", [registry]);
});
afterAll(async () => {
  await chain?.stop();
});

describe("TopicSchemeRegistry", () => {
  it("registers a scheme under topicId = uint256(keccak256(name)) and refuses duplicates", async () => {
    const hash = await chain.write(0, topics, topicAbi(), "registerTopicScheme", ["KYC", "string level"]);
    const [registered] = await eventsOf(chain, hash, topicAbi(), "TopicSchemeRegistered");
    expect(registered.args).toEqual({
      sender: chain.accounts[0],
      topicId: KYC,
      name: "KYC",
      signature: "string level",
    });
    expect(await read(chain, topics, topicAbi(), "getTopicId", ["KYC"])).toBe(KYC);
    expect(await read(chain, topics, topicAbi(), "hasTopicScheme", [KYC])).toBe(true);
    expect(await read(chain, topics, topicAbi(), "getTopicScheme", [KYC])).toEqual(["KYC", "string level"]);
    await expectRevert(
      chain.write(0, topics, topicAbi(), "registerTopicScheme", ["KYC", "bytes x"]),
      "TopicSchemeAlreadyExists",
      [KYC, "KYC"],
    );
    await expectRevert(chain.write(0, topics, topicAbi(), "registerTopicScheme", ["", "x"]), "EmptyTopicName");
    await expectRevert(chain.write(0, topics, topicAbi(), "registerTopicScheme", ["AML", ""]), "EmptyTopicSignature", [
      "AML",
    ]);
  });

  it("batch-registers, updates and removes schemes with events; unknown names revert", async () => {
    const batch = await chain.write(0, topics, topicAbi(), "batchRegisterTopicSchemes", [
      ["AML", "ACCREDITED"],
      ["bool cleared", "uint256 until"],
    ]);
    const registered = await eventsOf(chain, batch, topicAbi(), "TopicSchemeRegistered");
    expect(registered.map((e) => [e.args.topicId, e.args.name])).toEqual([
      [AML, "AML"],
      [topicId("ACCREDITED"), "ACCREDITED"],
    ]);
    await expectRevert(
      chain.write(0, topics, topicAbi(), "batchRegisterTopicSchemes", [["A"], []]),
      "ArrayLengthMismatch",
      [1n, 0n],
    );

    const updated = await chain.write(0, topics, topicAbi(), "updateTopicScheme", ["AML", "bool cleared, uint64 at"]);
    const [updateEvent] = await eventsOf(chain, updated, topicAbi(), "TopicSchemeUpdated");
    expect(updateEvent.args).toEqual({
      sender: chain.accounts[0],
      topicId: AML,
      name: "AML",
      signature: "bool cleared, uint64 at",
    });

    const removed = await chain.write(0, topics, topicAbi(), "removeTopicScheme", ["ACCREDITED"]);
    const [removeEvent] = await eventsOf(chain, removed, topicAbi(), "TopicSchemeRemoved");
    expect(removeEvent.args).toEqual({
      sender: chain.accounts[0],
      topicId: topicId("ACCREDITED"),
      name: "ACCREDITED",
      signature: "uint256 until",
    });
    expect(await read(chain, topics, topicAbi(), "getAllTopicIds")).toEqual([KYC, AML]);
    expect(await read(chain, topics, topicAbi(), "hasTopicSchemeByName", ["ACCREDITED"])).toBe(false);
    for (const fn of ["updateTopicScheme", "removeTopicScheme"] as const) {
      const args = fn === "updateTopicScheme" ? ["ACCREDITED", "x"] : ["ACCREDITED"];
      await expectRevert(chain.write(0, topics, topicAbi(), fn, args), "TopicSchemeNotFound", [
        topicId("ACCREDITED"),
        "ACCREDITED",
      ]);
    }
  });

  it("requires CLAIM_POLICY_MANAGER_ROLE", async () => {
    await expectRevert(
      chain.write(OUTSIDER, topics, topicAbi(), "registerTopicScheme", ["X", "y"]),
      "AccessControlUnauthorizedAccount",
      [chain.accounts[OUTSIDER], CLAIM_POLICY_MANAGER_ROLE],
    );
  });
});

describe("IdentityRegistry and its storage", () => {
  let identityA: Address;
  let identityB: Address;
  const walletA = () => chain.accounts[1];
  const walletB = () => chain.accounts[3];

  beforeAll(async () => {
    identityA = await createIdentity(chain, stack.factory, walletA());
    identityB = await createIdentity(chain, stack.factory, walletB());
  });

  it("registers a wallet with identity and country (IdentityRegistered) and reads them back", async () => {
    const hash = await chain.write(0, registry, regAbi(), "registerIdentity", [walletA(), identityA, BELGIUM]);
    const [registered] = await eventsOf(chain, hash, regAbi(), "IdentityRegistered");
    expect(registered.args).toEqual({
      sender: chain.accounts[0],
      wallet: walletA(),
      identity: identityA,
      country: BELGIUM,
    });
    expect(await read(chain, registry, regAbi(), "contains", [walletA()])).toBe(true);
    expect(await read(chain, registry, regAbi(), "identity", [walletA()])).toBe(identityA);
    expect(await read(chain, registry, regAbi(), "investorCountry", [walletA()])).toBe(BELGIUM);
    expect(await read(chain, storage, storeAbi(), "storedInvestorCountry", [walletA()])).toBe(BELGIUM);
    // Registered and no topic required: verified.
    expect(await read(chain, registry, regAbi(), "isVerified", [walletA(), []])).toBe(true);
    expect(await read(chain, registry, regAbi(), "isVerified", [walletB(), []])).toBe(false);
  });

  it("refuses a second registration, an EOA as identity, a country above 999 and mismatched batches", async () => {
    await expectRevert(
      chain.write(0, registry, regAbi(), "registerIdentity", [walletA(), identityA, BELGIUM]),
      "WalletAlreadyRegistered",
      [walletA()],
    );
    await expectRevert(
      chain.write(0, registry, regAbi(), "registerIdentity", [walletB(), walletB(), BELGIUM]),
      "IdentityNotAContract",
      [walletB()],
    );
    await expectRevert(
      chain.write(0, registry, regAbi(), "registerIdentity", [walletB(), identityB, 1000]),
      "InvalidCountryCode",
      [1000],
    );
    await expectRevert(
      chain.write(0, registry, regAbi(), "batchRegisterIdentity", [[walletB()], [identityB], []]),
      "ArrayLengthMismatch",
      [1n, 1n, 0n],
    );
  });

  it("updates country and identity, deletes, with events carrying the sender", async () => {
    const country = await chain.write(0, registry, regAbi(), "updateCountry", [walletA(), NETHERLANDS]);
    const [countryEvent] = await eventsOf(chain, country, regAbi(), "CountryUpdated");
    expect(countryEvent.args).toEqual({
      sender: chain.accounts[0],
      wallet: walletA(),
      oldCountry: BELGIUM,
      newCountry: NETHERLANDS,
    });
    expect(await read(chain, registry, regAbi(), "investorCountry", [walletA()])).toBe(NETHERLANDS);

    const swap = await chain.write(0, registry, regAbi(), "updateIdentity", [walletA(), identityB]);
    const [swapEvent] = await eventsOf(chain, swap, regAbi(), "IdentityUpdated");
    expect(swapEvent.args).toEqual({
      sender: chain.accounts[0],
      wallet: walletA(),
      newIdentity: identityB,
      oldIdentity: identityA,
    });
    await chain.write(0, registry, regAbi(), "updateIdentity", [walletA(), identityA]);

    const del = await chain.write(0, registry, regAbi(), "deleteIdentity", [walletA()]);
    const [delEvent] = await eventsOf(chain, del, regAbi(), "IdentityRemoved");
    expect(delEvent.args).toEqual({ sender: chain.accounts[0], wallet: walletA(), identity: identityA });
    expect(await read(chain, registry, regAbi(), "contains", [walletA()])).toBe(false);
    expect(await read(chain, registry, regAbi(), "investorCountry", [walletA()])).toBe(0);
    for (const [fn, args] of [
      ["deleteIdentity", [walletA()]],
      ["updateCountry", [walletA(), BELGIUM]],
      ["updateIdentity", [walletA(), identityA]],
    ] as const) {
      await expectRevert(chain.write(0, registry, regAbi(), fn, [...args]), "WalletNotRegistered", [walletA()]);
    }

    const batch = await chain.write(0, registry, regAbi(), "batchRegisterIdentity", [
      [walletA(), walletB()],
      [identityA, identityB],
      [BELGIUM, NETHERLANDS],
    ]);
    const registered = await eventsOf(chain, batch, regAbi(), "IdentityRegistered");
    expect(registered.map((e) => [e.args.wallet, e.args.identity, e.args.country])).toEqual([
      [walletA(), identityA, BELGIUM],
      [walletB(), identityB, NETHERLANDS],
    ]);
  });

  it("requires IDENTITY_MANAGER_ROLE to write and SYSTEM_MANAGER_ROLE to rewire", async () => {
    const outsider = chain.accounts[OUTSIDER];
    for (const [fn, args] of [
      ["registerIdentity", [outsider, identityA, BELGIUM]],
      ["updateCountry", [walletA(), BELGIUM]],
      ["updateIdentity", [walletA(), identityB]],
      ["deleteIdentity", [walletA()]],
    ] as const) {
      await expectRevert(chain.write(OUTSIDER, registry, regAbi(), fn, [...args]), "AccessControlUnauthorizedAccount", [
        outsider,
        IDENTITY_MANAGER_ROLE,
      ]);
    }
    await expectRevert(
      chain.write(OUTSIDER, registry, regAbi(), "setTrustedIssuersRegistry", [issuers]),
      "AccessControlUnauthorizedAccount",
      [outsider, SYSTEM_MANAGER_ROLE],
    );
    await expectRevert(
      chain.write(OUTSIDER, storage, storeAbi(), "bindIdentityRegistry", [outsider]),
      "AccessControlUnauthorizedAccount",
      [outsider, SYSTEM_MANAGER_ROLE],
    );
  });

  it("storage accepts writes from bound registries only; binding is evented", async () => {
    const outsider = chain.accounts[OUTSIDER];
    await expectRevert(
      chain.write(OUTSIDER, storage, storeAbi(), "addIdentityToStorage", [outsider, identityA, BELGIUM]),
      "CallerNotBoundRegistry",
      [outsider],
    );
    expect(await read(chain, storage, storeAbi(), "linkedIdentityRegistries")).toEqual([registry]);
    const second = await deployClone(chain, "IdentityRegistry", [stack.accessControl, storage, issuers, zeroAddress]);
    const bind = await chain.write(0, storage, storeAbi(), "bindIdentityRegistry", [second]);
    expect((await eventsOf(chain, bind, storeAbi(), "IdentityRegistryBound"))[0].args).toEqual({
      sender: chain.accounts[0],
      registry: second,
    });
    await expectRevert(chain.write(0, storage, storeAbi(), "bindIdentityRegistry", [second]), "RegistryAlreadyBound", [
      second,
    ]);
    // Both registries see the same storage.
    expect(await read(chain, second, regAbi(), "identity", [walletA()])).toBe(identityA);
    const unbind = await chain.write(0, storage, storeAbi(), "unbindIdentityRegistry", [second]);
    expect((await eventsOf(chain, unbind, storeAbi(), "IdentityRegistryUnbound"))[0].args).toEqual({
      sender: chain.accounts[0],
      registry: second,
    });
    await expectRevert(chain.write(0, second, regAbi(), "deleteIdentity", [walletA()]), "CallerNotBoundRegistry", [
      second,
    ]);
  });
});

describe("isVerified: trusted issuers, valid and revoked claims", () => {
  const holder = 1; // walletA, registered above with identityA
  const issuerOwner = 2;
  const signer = 0; // account 0 holds the issuer's CLAIM key
  let subject: Address;
  let issuer: Address;
  let signature: Hex;
  const verified = (topicsList: bigint[], wallet = chain.accounts[holder]) =>
    read<boolean>(chain, registry, regAbi(), "isVerified", [wallet, topicsList]);

  beforeAll(async () => {
    subject = await read<Address>(chain, registry, regAbi(), "identity", [chain.accounts[holder]]);
    issuer = await createIdentity(chain, stack.factory, chain.accounts[issuerOwner]);
    await chain.write(issuerOwner, issuer, idAbi(), "addKey", [addressKey(chain.accounts[signer]), CLAIM, ECDSA_KEY]);
    const data = claimData("kyc:ok");
    signature = await signClaim(chain, signer, subject, KYC, data);
    await chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, issuer, signature, data, ""]);
  });

  it("counts a claim only once its issuer is trusted for the topic", async () => {
    expect(await verified([KYC])).toBe(false);
    const hash = await chain.write(0, issuers, tirAbi(), "addTrustedIssuer", [issuer, [KYC]]);
    const [added] = await eventsOf(chain, hash, tirAbi(), "TrustedIssuerAdded");
    expect(added.args).toEqual({ sender: chain.accounts[0], issuer, claimTopics: [KYC] });
    expect(await verified([KYC])).toBe(true);
    expect(await verified([KYC, AML])).toBe(false);
    expect(await verified([KYC], chain.accounts[OUTSIDER])).toBe(false);
    expect(await read(chain, issuers, tirAbi(), "getTrustedIssuersForClaimTopic", [KYC])).toEqual([issuer]);
    expect(await read(chain, issuers, tirAbi(), "hasClaimTopic", [issuer, KYC])).toBe(true);
  });

  it("flips with the issuer's topics and trust", async () => {
    const update = await chain.write(0, issuers, tirAbi(), "updateIssuerClaimTopics", [issuer, [AML]]);
    expect((await eventsOf(chain, update, tirAbi(), "ClaimTopicsUpdated"))[0].args).toEqual({
      sender: chain.accounts[0],
      issuer,
      claimTopics: [AML],
    });
    expect(await verified([KYC])).toBe(false);
    expect(await read(chain, issuers, tirAbi(), "getTrustedIssuersForClaimTopic", [KYC])).toEqual([]);
    await chain.write(0, issuers, tirAbi(), "updateIssuerClaimTopics", [issuer, [KYC, AML]]);
    expect(await verified([KYC])).toBe(true);

    const removed = await chain.write(0, issuers, tirAbi(), "removeTrustedIssuer", [issuer]);
    expect((await eventsOf(chain, removed, tirAbi(), "TrustedIssuerRemoved"))[0].args).toEqual({
      sender: chain.accounts[0],
      issuer,
    });
    expect(await verified([KYC])).toBe(false);
    expect(await read(chain, issuers, tirAbi(), "isTrustedIssuer", [issuer])).toBe(false);
    await chain.write(0, issuers, tirAbi(), "addTrustedIssuer", [issuer, [KYC]]);
    expect(await verified([KYC])).toBe(true);
  });

  it("refuses bad trusted-issuer changes with their custom errors", async () => {
    await expectRevert(chain.write(0, issuers, tirAbi(), "addTrustedIssuer", [issuer, [AML]]), "IssuerAlreadyTrusted", [
      issuer,
    ]);
    await expectRevert(chain.write(0, issuers, tirAbi(), "removeTrustedIssuer", [subject]), "IssuerNotTrusted", [
      subject,
    ]);
    await expectRevert(chain.write(0, issuers, tirAbi(), "addTrustedIssuer", [subject, []]), "NoClaimTopics", [
      subject,
    ]);
    await expectRevert(
      chain.write(0, issuers, tirAbi(), "addTrustedIssuer", [subject, [KYC, AML, KYC]]),
      "DuplicateClaimTopic",
      [KYC],
    );
    await expectRevert(
      chain.write(0, issuers, tirAbi(), "addTrustedIssuer", [subject, Array.from({ length: 16 }, (_, i) => BigInt(i))]),
      "TooManyClaimTopics",
      [16n, 15n],
    );
    await expectRevert(
      chain.write(OUTSIDER, issuers, tirAbi(), "addTrustedIssuer", [subject, [KYC]]),
      "AccessControlUnauthorizedAccount",
      [chain.accounts[OUTSIDER], CLAIM_POLICY_MANAGER_ROLE],
    );
  });

  it("a claim the issuer revokes (ClaimRevoked) stops counting; a fresh one counts again", async () => {
    expect(await verified([KYC])).toBe(true);
    const claimId = claimIdOf(issuer, KYC);
    const hash = await chain.write(signer, issuer, idAbi(), "revokeClaim", [claimId, subject]);
    const [revoked] = await eventsOf(chain, hash, idAbi(), "ClaimRevoked");
    expect(revoked.args).toEqual({ sender: chain.accounts[signer], subject, claimId, topic: KYC, signature });
    expect(await verified([KYC])).toBe(false);

    const data = claimData("kyc:renewed");
    const renewed = await signClaim(chain, signer, subject, KYC, data);
    const changed = await chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, issuer, renewed, data, ""]);
    expect((await eventsOf(chain, changed, idAbi())).map((e) => e.eventName)).toEqual(["ClaimChanged"]);
    expect(await verified([KYC])).toBe(true);

    // Removing the claim from the identity also unverifies.
    await chain.write(holder, subject, idAbi(), "removeClaim", [claimId]);
    expect(await verified([KYC])).toBe(false);
    await chain.write(holder, subject, idAbi(), "addClaim", [KYC, 1n, issuer, renewed, data, ""]);
    expect(await verified([KYC])).toBe(true);
  });

  it("with a meta registry, a subject's own trusted issuers count for that subject only", async () => {
    // A second issuer, trusted only by a token's own registry, vouches AML for the holder.
    const tokenIssuer = await createIdentity(chain, stack.factory, chain.accounts[OUTSIDER], [], OUTSIDER);
    await chain.write(OUTSIDER, tokenIssuer, idAbi(), "addKey", [
      addressKey(chain.accounts[OUTSIDER]),
      CLAIM,
      ECDSA_KEY,
    ]);
    const data = claimData("aml:ok");
    const amlSig = await signClaim(chain, OUTSIDER, subject, AML, data);
    await chain.write(holder, subject, idAbi(), "addClaim", [AML, 1n, tokenIssuer, amlSig, data, ""]);

    const token = stack.announcer; // any contract stands in for the token
    const tokenIssuers = await deployClone(chain, "TrustedIssuersRegistry", [stack.accessControl]);
    await chain.write(0, tokenIssuers, tirAbi(), "addTrustedIssuer", [tokenIssuer, [AML]]);
    const meta = await deployClone(chain, "TrustedIssuersMetaRegistry", [stack.accessControl, issuers]);
    await expectRevert(
      chain.write(OUTSIDER, meta, metaAbi(), "setSubjectRegistry", [token, tokenIssuers]),
      "AccessControlUnauthorizedAccount",
      [chain.accounts[OUTSIDER], CLAIM_POLICY_MANAGER_ROLE],
    );
    const set = await chain.write(0, meta, metaAbi(), "setSubjectRegistry", [token, tokenIssuers]);
    expect((await eventsOf(chain, set, metaAbi(), "SubjectTrustedIssuersRegistrySet"))[0].args).toEqual({
      sender: chain.accounts[0],
      subject: token,
      registry: tokenIssuers,
    });
    const wire = await chain.write(0, registry, regAbi(), "setTrustedIssuersMetaRegistry", [meta]);
    expect((await eventsOf(chain, wire, regAbi(), "TrustedIssuersMetaRegistrySet"))[0].args).toEqual({
      sender: chain.accounts[0],
      registry: meta,
    });

    const wallet = chain.accounts[holder];
    const verifiedFor = (subjectAddress: Address, list: bigint[]) =>
      read<boolean>(chain, registry, regAbi(), "isVerifiedFor", [subjectAddress, wallet, list]);
    expect(await verified([KYC])).toBe(true); // system issuers still count
    expect(await verified([KYC, AML])).toBe(false); // system-wide only: the token's issuer does not count
    expect(await verifiedFor(token, [KYC, AML])).toBe(true);
    expect(await verifiedFor(stack.factory, [AML])).toBe(false); // another subject
    expect(await read(chain, meta, metaAbi(), "getTrustedIssuersForClaimTopic", [token, AML])).toEqual([tokenIssuer]);
    expect(await read(chain, meta, metaAbi(), "isTrustedIssuerFor", [token, issuer, KYC])).toBe(true);

    await chain.write(0, registry, regAbi(), "setTrustedIssuersMetaRegistry", [zeroAddress]);
    expect(await verifiedFor(token, [AML])).toBe(false);
  });
});
