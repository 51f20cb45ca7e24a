// Identities, claims and their reads end to end over HTTP against the real stack: two organisations, each with its
// claim issuer, topic schemes and trusted issuers; wallets and contracts (entities) onboarded; claims added, changed,
// removed and revoked; then every read (entities, claim events, statistics) with its fields, filters, facets, sorts,
// permissions and errors, and organisation A never seeing B's identities or counts.
import { createPublicClient, getAddress, type Hex, http, keccak256, stringToHex, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IdentityRegistryAbi } from "../abis/IdentityRegistry.ts";
import { keyedApi } from "./support/api-flows.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { json, type TestStack } from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const CAROL = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const DAVE = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const BELGIUM = 56;
const topicId = (name: string) => BigInt(keccak256(stringToHex(name)));
const KYC = topicId("kyc").toString();
const AML = topicId("aml").toString();

describe("identities, claims and their reads, end to end over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  const keys: Record<string, string> = {};
  let orgB: string;
  let signerA: string;
  let issuerA: string;
  let deposit: string;
  let stablecoin: string;
  const identityOf: Record<string, string> = {};
  let started: Date;

  const { call, write } = keyedApi(
    () => stack,
    () => keys.ownerA,
  );
  const get = (path: string, key = keys.identityManagerA) => call("GET", path, undefined, key);
  const names = (rows: { name: string }[]) => rows.map((r) => r.name);

  beforeAll(async () => {
    stack = await organizationStack("identity-reads");
    ops = operator(stack);
    const orgA = stack.platform.credentials.organizationId;
    keys.ownerA = stack.platform.credentials.apiKey;
    for (const role of ["identityManager", "systemManager", "claimIssuer", "member"]) {
      keys[`${role}A`] = await ops.keyFor(orgA, role);
    }
    orgB = await ops.organization("Organisation B");
    keys.ownerB = await ops.keyFor(orgB, "owner");
    keys.identityManagerB = await ops.keyFor(orgB, "identityManager");
    started = new Date();
  }, 180_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  describe("organisation A builds its world", () => {
    it("registers topic schemes (and removes one), refusing callers without the claim policy permission", async () => {
      const denied = await call(
        "POST",
        "/api/v2/system/topic-schemes",
        { name: "x", signature: "string x" },
        keys.claimIssuerA,
      );
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe("USER_NOT_AUTHORIZED");
      const schemes = [
        ["kyc", "string level"],
        ["aml", "bool cleared"],
        ["accredited", "uint256 until"],
        ["residency", "string country"],
        ["pep", "bool exposed"],
        ["obsolete", "string note"],
      ];
      for (const [name, signature] of schemes) {
        const done = await write("POST", "/api/v2/system/topic-schemes", { name, signature });
        expect(done).toMatchObject({
          kind: "topicScheme.register",
          topicId: topicId(name).toString(),
          name,
          signature,
        });
      }
      const updated = await write("PUT", "/api/v2/system/topic-schemes/pep", {
        signature: "bool exposed, string role",
      });
      expect(updated).toMatchObject({
        kind: "topicScheme.update",
        name: "pep",
        signature: "bool exposed, string role",
      });
      expect(await write("DELETE", "/api/v2/system/topic-schemes/obsolete")).toMatchObject({ name: "obsolete" });
      const bad = await call("POST", "/api/v2/system/topic-schemes", { name: "bad", signature: "not abi (" });
      expect(bad.status).toBe(400);
    });

    it("makes the signing wallet a claim issuer once", async () => {
      const before = await get("/api/v2/system/claim-issuer", keys.ownerA);
      expect(before.status).toBe(200);
      expect(before.body.data).toMatchObject({ identity: null, canSignClaims: false });
      signerA = before.body.data.wallet;
      const early = await call("POST", "/api/v2/system/identity-claims", { wallet: ALICE, topic: "kyc" });
      expect([early.status, early.body.code]).toEqual([404, "IDENTITY_NOT_FOUND"]);

      const keyed = (key: string) =>
        stack.api("/api/v2/system/claim-issuer", {
          method: "POST",
          key: keys.ownerA,
          headers: { prefer: "wait=60", "idempotency-key": key },
        });
      const first = await keyed("claim-issuer-once");
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const created = (await json(first)).data;
      expect(created).toMatchObject({ kind: "claimIssuer.create", status: "COMPLETED", wallet: signerA });
      // A retry with the same key answers as the first did, though the wallet is an issuer now.
      const retried = await keyed("claim-issuer-once");
      expect(retried.status).toBe(200);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      expect((await json(retried)).data).toMatchObject({ transactionId: created.transactionId, status: "COMPLETED" });
      issuerA = created.identity;
      const after = await get("/api/v2/system/claim-issuer", keys.claimIssuerA);
      expect(after.body.data).toEqual({ wallet: signerA, identity: issuerA, canSignClaims: true });
      const again = await call("POST", "/api/v2/system/claim-issuer");
      expect([again.status, again.body.code]).toEqual([409, "RESOURCE_ALREADY_EXISTS"]);
    });

    it("trusts its issuer for kyc, then kyc and aml; trusts and drops a second issuer", async () => {
      expect(await write("POST", "/api/v2/system/trusted-issuers", { claimTopics: ["kyc"] })).toMatchObject({
        kind: "trustedIssuer.add",
        issuer: issuerA,
        claimTopics: [KYC],
        topics: [{ topicId: KYC, name: "kyc" }],
      });
      const updated = await write("PUT", `/api/v2/system/trusted-issuers/${issuerA}`, { claimTopics: ["kyc", "aml"] });
      expect(updated.claimTopics).toEqual([KYC, AML]);
      expect(updated.topics).toEqual([
        { topicId: KYC, name: "kyc" },
        { topicId: AML, name: "aml" },
      ]);
      const duplicate = await call("PUT", `/api/v2/system/trusted-issuers/${issuerA}`, { claimTopics: ["kyc", "kyc"] });
      expect(duplicate.status).toBe(400);

      const carol = await write("POST", "/api/v2/system/identities", { wallet: CAROL, country: 276 });
      identityOf.carol = carol.identity;
      await write("POST", "/api/v2/system/trusted-issuers", { issuerAddress: carol.identity, claimTopics: ["pep"] });
      expect(await write("DELETE", `/api/v2/system/trusted-issuers/${carol.identity}`)).toMatchObject({
        kind: "trustedIssuer.remove",
        issuer: carol.identity,
      });
    });

    it("onboards wallets, and creates entities for two tokens (one registered, one pending)", async () => {
      for (const [name, wallet] of [
        ["alice", ALICE],
        ["bob", BOB],
      ]) {
        identityOf[name] = (await write("POST", "/api/v2/system/identities", { wallet, country: BELGIUM })).identity;
      }
      deposit = (await write("POST", "/api/v2/tokens", { templateId: "deposit", name: "Euro Deposit", symbol: "EURD" }))
        .tokenAddress;
      stablecoin = (
        await write("POST", "/api/v2/tokens", {
          templateId: "stablecoin",
          name: "US Dollar X",
          symbol: "USDX",
          decimals: 6,
        })
      ).tokenAddress;
      const denied = await call("POST", "/api/v2/system/entities", { contractAddress: deposit }, keys.claimIssuerA);
      expect(denied.status).toBe(403);
      for (const [name, token] of [
        ["deposit", deposit],
        ["stablecoin", stablecoin],
      ]) {
        const entity = await write("POST", "/api/v2/system/entities", { contractAddress: token });
        expect(entity).toMatchObject({ kind: "entity.create", contractAddress: getAddress(token), manager: signerA });
        identityOf[name] = entity.identity;
      }
      const registered = await write("POST", "/api/v2/system/identities", { wallet: deposit, country: BELGIUM });
      expect(registered.identity).toBe(identityOf.deposit);
    });

    it("issues, changes, removes and revokes claims; the chain verifies the trusted ones", async () => {
      const added = await write(
        "POST",
        "/api/v2/system/identity-claims",
        { wallet: ALICE, topic: "kyc", values: ["level-2"] },
        keys.claimIssuerA,
      );
      expect(added).toMatchObject({
        kind: "claim.issue",
        eventName: "ClaimAdded",
        identity: identityOf.alice,
        topic: KYC,
        topicName: "kyc",
        issuer: issuerA,
      });
      const changed = await write("POST", "/api/v2/system/identity-claims", {
        identityAddress: identityOf.alice,
        topic: "kyc",
        values: ["level-3"],
        uri: "https://kyc.example/alice",
      });
      expect(changed).toMatchObject({ eventName: "ClaimChanged", claimId: added.claimId });
      await write("POST", "/api/v2/system/identity-claims", { wallet: ALICE, topic: "aml", values: [true] });
      expect(
        await write("POST", "/api/v2/system/identity-claim-revocations", { wallet: ALICE, topic: "aml" }),
      ).toMatchObject({
        kind: "claim.revoke",
        identity: identityOf.alice,
        issuer: issuerA,
        topic: AML,
        topicName: "aml",
      });

      const bobKyc = await write("POST", "/api/v2/system/identity-claims", { wallet: BOB, topic: "kyc", data: "0x" });
      expect(
        await write("POST", "/api/v2/system/identity-claim-removals", { wallet: BOB, claimId: bobKyc.claimId }),
      ).toMatchObject({
        kind: "claim.remove",
        claimId: bobKyc.claimId,
        topic: KYC,
        topicName: "kyc", // found in the index: the removal named the claim by its id
      });

      // Not trusted for accredited: attached, but untrusted.
      await write("POST", "/api/v2/system/identity-claims", {
        identityAddress: identityOf.stablecoin,
        topic: "accredited",
        values: ["1999999999"],
      });

      await new Promise((r) => setTimeout(r, 1100)); // the deposit's latest activity a block-second later
      await write("POST", "/api/v2/system/identity-claims", {
        identityAddress: identityOf.deposit,
        topic: "kyc",
        values: ["entity"],
      });
      const depositAml = await write("POST", "/api/v2/system/identity-claims", {
        identityAddress: identityOf.deposit,
        topic: "aml",
        values: [true],
      });
      await write("POST", "/api/v2/system/identity-claim-revocations", {
        identityAddress: identityOf.deposit,
        claimId: depositAml.claimId,
      });
      const chain = createPublicClient({ transport: http(stack.platform.credentials.rpcUrl) });
      const { rows } = await ops.db.pool.query(
        "select contracts from platform.organization_chains where organization_id = $1",
        [stack.platform.credentials.organizationId],
      );
      const verified = (wallet: string, topics: string[]) =>
        chain.readContract({
          abi: IdentityRegistryAbi,
          address: getAddress(rows[0].contracts.identityRegistry),
          functionName: "isVerified",
          args: [getAddress(wallet), topics.map(BigInt)],
        });
      expect(await verified(ALICE, [KYC])).toBe(true);
      expect(await verified(ALICE, [AML])).toBe(false); // revoked
      expect(await verified(BOB, [KYC])).toBe(false); // removed
      expect(await verified(deposit, [KYC])).toBe(true);
    });

    it("refuses claim writes it cannot make, with the spec's envelope", async () => {
      const cases: [unknown, number, string][] = [
        [{ wallet: ALICE, topic: "unregistered" }, 404, "TOPIC_SCHEME_NOT_FOUND"],
        [{ wallet: DAVE, topic: "kyc" }, 404, "IDENTITY_NOT_FOUND"],
        [{ identityAddress: ALICE, topic: "kyc" }, 404, "IDENTITY_NOT_FOUND"],
        [{ wallet: ALICE, topic: "kyc", values: [1, 2] }, 400, "BAD_REQUEST"],
        [{ wallet: ALICE, identityAddress: identityOf.alice, topic: "kyc" }, 400, "BAD_REQUEST"],
        [{ wallet: ALICE, topic: "kyc", data: "0x1", values: [] }, 400, "BAD_REQUEST"],
      ];
      for (const [body, status, code] of cases) {
        const res = await call("POST", "/api/v2/system/identity-claims", body);
        expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
        expect(res.body.data.id).toMatch(/^SVC-\d+$/);
      }
      const notOurs = await call("POST", "/api/v2/system/identity-claim-revocations", { wallet: BOB, topic: "kyc" });
      expect([notOurs.status, notOurs.body.code]).toEqual([404, "CLAIM_NOT_FOUND"]);
      const member = await call(
        "POST",
        "/api/v2/system/identity-claims",
        { wallet: ALICE, topic: "kyc" },
        keys.memberA,
      );
      expect([member.status, member.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
    });
  });

  describe("organisation B builds its own", () => {
    it("needs its own claim issuer, and cannot touch A's identities", async () => {
      await write("POST", "/api/v2/system/identities", { wallet: DAVE, country: 250 }, keys.ownerB);
      await write(
        "POST",
        "/api/v2/system/topic-schemes",
        { name: "residency", signature: "string country" },
        keys.ownerB,
      );
      const noIssuer = await call(
        "POST",
        "/api/v2/system/identity-claims",
        { wallet: DAVE, topic: "residency", values: ["FR"] },
        keys.ownerB,
      );
      expect([noIssuer.status, noIssuer.body.code]).toEqual([409, "CLAIM_ISSUER_NOT_CONFIGURED"]);
      await write("POST", "/api/v2/system/claim-issuer", undefined, keys.ownerB);
      await write("POST", "/api/v2/system/trusted-issuers", { claimTopics: ["residency"] }, keys.ownerB);
      await write(
        "POST",
        "/api/v2/system/identity-claims",
        { wallet: DAVE, topic: "residency", values: ["FR"] },
        keys.ownerB,
      );
      const foreign = await call(
        "POST",
        "/api/v2/system/identity-claims",
        { identityAddress: identityOf.alice, topic: "residency", values: ["FR"] },
        keys.ownerB,
      );
      expect([foreign.status, foreign.body.code]).toEqual([404, "IDENTITY_NOT_FOUND"]);
    });
  });

  describe("GET /api/v2/system/entities", () => {
    it("lists the contract identities with the spec's fields, oldest activity first", async () => {
      const { status, body } = await get("/api/v2/system/entities");
      expect(status).toBe(200);
      expect(body.meta.total).toBe(2);
      const [first, second] = body.data;
      expect(first).toEqual({
        id: identityOf.stablecoin.toLowerCase(),
        contractAddress: stablecoin.toLowerCase(),
        contractName: "US Dollar X",
        entityType: "stablecoin",
        isContract: true,
        status: "pending",
        country: null,
        verificationBadges: [],
        lastActivity: expect.any(String),
        activeClaimsCount: 0,
        revokedClaimsCount: 0,
        untrustedClaimsCount: 1,
        deployedInTransaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect(second).toMatchObject({
        id: identityOf.deposit.toLowerCase(),
        contractName: "Euro Deposit",
        entityType: "deposit",
        status: "registered",
        country: "BE",
        verificationBadges: ["kyc"],
        activeClaimsCount: 1,
        revokedClaimsCount: 1,
        untrustedClaimsCount: 0,
      });
      expect(Date.parse(first.lastActivity)).toBeLessThanOrEqual(Date.parse(second.lastActivity));
      expect(body.meta.facets.status).toEqual(
        expect.arrayContaining([
          { value: "registered", count: 1 },
          { value: "pending", count: 1 },
        ]),
      );
      expect(body.meta.facets.entityType).toEqual(
        expect.arrayContaining([
          { value: "deposit", count: 1 },
          { value: "stablecoin", count: 1 },
        ]),
      );
      expect(body.links).toMatchObject({ prev: null, next: null });
    });

    it("filters by status, entityType and q (identity address, account name); sorts by the spec's fields", async () => {
      const ids = async (query: string) =>
        (await get(`/api/v2/system/entities?${query}`)).body.data.map((e: { id: string }) => e.id);
      const [depositId, stableId] = [identityOf.deposit.toLowerCase(), identityOf.stablecoin.toLowerCase()];
      expect(await ids("filter[status]=pending")).toEqual([stableId]);
      expect(await ids("filter[status][inArray]=registered,pending")).toHaveLength(2);
      expect(await ids("filter[entityType]=deposit")).toEqual([depositId]);
      expect(await ids("filter[q]=euro")).toEqual([depositId]);
      expect(await ids(`filter[q]=${identityOf.stablecoin.slice(2, 12).toUpperCase()}`)).toEqual([stableId]);
      expect(await ids("sort=-lastActivity")).toEqual([depositId, stableId]);
      expect(await ids("sort=entityType")).toEqual([depositId, stableId]);
      expect(await ids("sort=-entityType")).toEqual([stableId, depositId]);
      expect(await ids("sort=identityAddress")).toEqual([depositId, stableId].sort());
      const paged = await get("/api/v2/system/entities?page[limit]=1");
      expect(paged.body.data).toHaveLength(1);
      expect(paged.body.links.next).toContain("page%5Boffset%5D=1");

      const unknown = await get("/api/v2/system/entities?filter[country]=BE");
      expect([unknown.status, unknown.body.code]).toEqual([400, "COLLECTION_FILTER_FIELD_UNKNOWN"]);
      const unsortable = await get("/api/v2/system/entities?sort=status");
      expect([unsortable.status, unsortable.body.code]).toEqual([400, "COLLECTION_SORT_FIELD_UNKNOWN"]);
      const badStatus = await get("/api/v2/system/entities?filter[status]=active");
      expect(badStatus.status).toBe(400);
    });

    it("is for identity managers, system managers and claim issuers only; B sees none of A's", async () => {
      // The first-start owner holds every role, so it reads them too; a plain member does not.
      for (const key of [keys.systemManagerA, keys.claimIssuerA, keys.ownerA]) {
        expect((await get("/api/v2/system/entities", key)).body.meta.total).toBe(2);
      }
      for (const key of [keys.memberA]) {
        const denied = await get("/api/v2/system/entities", key);
        expect([denied.status, denied.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
        expect(denied.body.data.requiredRoles).toEqual(["identityManager", "systemManager", "claimIssuer"]);
      }
      const b = await get("/api/v2/system/entities", keys.identityManagerB);
      expect(b.status).toBe(200);
      expect(b.body).toMatchObject({ data: [], meta: { total: 0 } });
    });
  });

  describe("GET /api/v2/system/topic-schemes and /trusted-issuers", () => {
    it("lists the registered topic schemes by name, topic ids as decimal strings", async () => {
      const { status, body } = await get("/api/v2/system/topic-schemes");
      expect(status).toBe(200);
      expect(body.meta.total).toBe(5); // "obsolete" was removed
      expect(names(body.data)).toEqual(["accredited", "aml", "kyc", "pep", "residency"]);
      expect(body.data[2]).toEqual({
        topicId: KYC,
        name: "kyc",
        signature: "string level",
        registry: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        registeredAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(body.data.find((t: { name: string }) => t.name === "pep").signature).toBe("bool exposed, string role");
      const listed = async (query: string) => names((await get(`/api/v2/system/topic-schemes?${query}`)).body.data);
      expect(await listed(`filter[topicId]=${AML}`)).toEqual(["aml"]);
      expect(await listed("filter[q]=bool")).toEqual(["aml", "pep"]);
      expect(await listed("sort=-name&page[limit]=2")).toEqual(["residency", "pep"]);
      expect(names((await get("/api/v2/system/topic-schemes", keys.identityManagerB)).body.data)).toEqual([
        "residency",
      ]);
      const denied = await get("/api/v2/system/topic-schemes", keys.memberA);
      expect([denied.status, denied.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
    });

    it("lists the trusted issuers with their topics (decimal id and name); facet and filter claimTopic", async () => {
      const { status, body } = await get("/api/v2/system/trusted-issuers");
      expect(status).toBe(200);
      expect(body.data).toEqual([
        {
          issuerAddress: getAddress(issuerA),
          claimTopics: [
            { topicId: KYC, name: "kyc" },
            { topicId: AML, name: "aml" },
          ],
          registry: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
          addedAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ]); // Carol's identity was trusted, then removed
      expect(body.meta.facets.claimTopic).toEqual(
        expect.arrayContaining([
          { value: KYC, count: 1 },
          { value: AML, count: 1 },
        ]),
      );
      const total = async (query: string) => (await get(`/api/v2/system/trusted-issuers?${query}`)).body.meta.total;
      expect(await total(`filter[claimTopic]=${KYC}`)).toBe(1);
      expect(await total(`filter[claimTopic]=${topicId("pep")}`)).toBe(0);
      expect(await total(`filter[issuerAddress]=${issuerA.toUpperCase().replace("0X", "0x")}`)).toBe(1);
      const b = await get("/api/v2/system/trusted-issuers", keys.identityManagerB);
      expect(b.body.data.map((i: { claimTopics: unknown }) => i.claimTopics)).toEqual([
        [{ topicId: topicId("residency").toString(), name: "residency" }],
      ]);
    });
  });

  describe("transaction requests of the identity layer", () => {
    it("are described in sentences naming topics and shortened addresses", async () => {
      const short = (a: string) => `${getAddress(a).slice(0, 6)}…${getAddress(a).slice(-4)}`;
      const described = async (kind: string) =>
        (await get(`/api/v2/transaction-requests?filter[kind]=${kind}&sort=createdAt`, keys.ownerA)).body.data.map(
          (r: { description: string }) => r.description,
        );
      expect(await described("trustedIssuer.add")).toEqual([
        `Trust ${short(issuerA)} for kyc`,
        `Trust ${short(identityOf.carol)} for pep`,
      ]);
      expect((await described("claim.issue"))[0]).toBe(`Issue the kyc claim to identity ${short(identityOf.alice)}`);
      expect(await described("identity.register")).toContain(`Register the identity of ${short(ALICE)} (country 56)`);
      expect((await described("topicScheme.register"))[0]).toBe("Register the claim topic kyc (string level)");
    });
  });

  describe("GET /api/v2/system/identities", () => {
    it("finds a wallet's identity with filter[wallet], with its registration and claims", async () => {
      const { status, body } = await get(`/api/v2/system/identities?filter[wallet]=${ALICE}`);
      expect(status).toBe(200);
      expect(body.data).toEqual([
        {
          id: identityOf.alice.toLowerCase(),
          wallet: ALICE.toLowerCase(),
          isContract: false,
          status: "registered",
          country: "BE",
          verificationBadges: ["kyc"],
          activeClaimsCount: 1,
          revokedClaimsCount: 1,
          untrustedClaimsCount: 0,
          createdAt: expect.any(String),
          lastActivity: expect.any(String),
          deployedInTransaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        },
      ]);
      expect((await get(`/api/v2/system/identities?filter[wallet]=${ALICE.toLowerCase()}`)).body.meta.total).toBe(1);
      // Dave is B's: not in A's system.
      expect((await get(`/api/v2/system/identities?filter[wallet]=${DAVE}`)).body.meta.total).toBe(0);
      const dave = await get(`/api/v2/system/identities?filter[wallet]=${DAVE}`, keys.identityManagerB);
      expect(dave.body.data).toHaveLength(1);
    });

    it("lists every identity of the system, wallets' and contracts', with facets status and isContract", async () => {
      const { body } = await get("/api/v2/system/identities");
      // Carol, Alice, Bob and the claim issuer; the deposit's and the stablecoin's entities.
      expect(body.meta.total).toBe(6);
      expect(body.meta.facets.isContract).toEqual(
        expect.arrayContaining([
          { value: false, count: 4 },
          { value: true, count: 2 },
        ]),
      );
      expect(body.meta.facets.status).toEqual(
        expect.arrayContaining([
          { value: "registered", count: 4 },
          { value: "pending", count: 2 },
        ]),
      );
      const contracts = await get("/api/v2/system/identities?filter[isContract]=true&sort=createdAt");
      // Oldest first; two created in the same block second come in id order.
      const listed = contracts.body.data as { id: string; createdAt: string }[];
      expect(listed.map((i) => i.id).sort()).toEqual(
        [identityOf.deposit.toLowerCase(), identityOf.stablecoin.toLowerCase()].sort(),
      );
      const [first, second] = listed as [{ id: string; createdAt: string }, { id: string; createdAt: string }];
      expect(first.createdAt <= second.createdAt).toBe(true);
      if (first.createdAt === second.createdAt) expect(first.id < second.id).toBe(true);
      expect((await get("/api/v2/system/identities", keys.memberA)).status).toBe(403);
    });
  });

  describe("GET /api/v2/tokens", () => {
    it("lists the organisation's tokens on its chain, newest first, with facets template and feature", async () => {
      const { status, body } = await get("/api/v2/tokens", keys.memberA);
      expect(status).toBe(200);
      // Newest first: both may share a block second, then the higher address comes first.
      expect(body.data.map((t: { symbol: string }) => t.symbol).sort()).toEqual(["EURD", "USDX"]);
      const [newer, older] = body.data;
      expect(Date.parse(newer.createdAt)).toBeGreaterThanOrEqual(Date.parse(older.createdAt));
      if (newer.createdAt === older.createdAt) expect(newer.id > older.id).toBe(true);
      expect(body.data.find((t: { symbol: string }) => t.symbol === "USDX")).toEqual({
        id: stablecoin.toLowerCase(),
        address: getAddress(stablecoin),
        chainId: 31337,
        name: "US Dollar X",
        symbol: "USDX",
        decimals: 6,
        template: "stablecoin",
        features: ["permit"],
        totalSupply: "0",
        paused: false,
        createdBy: { id: expect.stringMatching(/^0x[0-9a-f]{40}$/) },
        deployedInTransaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        createdAt: expect.any(String),
      });
      expect(body.meta).toEqual({
        total: 2,
        facets: {
          template: expect.arrayContaining([
            { value: "deposit", count: 1 },
            { value: "stablecoin", count: 1 },
          ]),
          feature: [{ value: "permit", count: 1 }],
          paused: [{ value: false, count: 2 }],
        },
      });
      const symbols = async (query: string) =>
        (await get(`/api/v2/tokens?${query}`)).body.data.map((t: { symbol: string }) => t.symbol);
      expect(await symbols("filter[template]=deposit")).toEqual(["EURD"]);
      expect(await symbols("filter[feature]=permit")).toEqual(["USDX"]);
      expect(await symbols("filter[feature][isEmpty]=")).toEqual(["EURD"]);
      expect(await symbols("filter[q]=euro")).toEqual(["EURD"]);
      expect(await symbols(`filter[address]=${deposit}`)).toEqual(["EURD"]);
      expect(await symbols("sort=symbol")).toEqual(["EURD", "USDX"]);
      const b = await get("/api/v2/tokens", keys.ownerB);
      expect([b.status, b.body.meta.total]).toEqual([200, 0]);
      const unknown = await get("/api/v2/tokens?filter[owner]=x");
      expect([unknown.status, unknown.body.code]).toEqual([400, "COLLECTION_FILTER_FIELD_UNKNOWN"]);
    });
  });

  describe("GET /api/v2/system/identities/{identityAddress}/claim-events", () => {
    const path = () => `/api/v2/system/identities/${identityOf.alice}/claim-events`;

    it("lists the identity's claim events newest first, with facets topic and eventName", async () => {
      const { status, body } = await get(path());
      expect(status).toBe(200);
      expect(body.meta.total).toBe(4);
      expect(body.data.map((e: { eventName: string }) => e.eventName)).toEqual([
        "ClaimRevoked",
        "ClaimAdded",
        "ClaimChanged",
        "ClaimAdded",
      ]);
      const [revoked, amlAdded, , kycAdded] = body.data;
      expect(revoked).toMatchObject({
        topic: AML,
        topicName: "aml",
        claimId: amlAdded.claimId,
        emitter: { id: issuerA.toLowerCase() },
        sender: { id: signerA.toLowerCase() },
      });
      expect(names(revoked.values)).toEqual(["topic", "issuer", "signature"]);
      expect(kycAdded).toEqual({
        id: `${kycAdded.transactionHash}-${kycAdded.id.split("-")[1]}`,
        eventName: "ClaimAdded",
        topic: KYC,
        topicName: "kyc",
        claimId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        blockNumber: expect.stringMatching(/^\d+$/),
        blockTimestamp: expect.any(String),
        transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        emitter: { id: identityOf.alice.toLowerCase() },
        sender: { id: signerA.toLowerCase() },
        values: [
          { id: `${kycAdded.id}-topic`, name: "topic", value: KYC },
          { id: `${kycAdded.id}-scheme`, name: "scheme", value: "1" },
          { id: `${kycAdded.id}-issuer`, name: "issuer", value: issuerA.toLowerCase() },
          { id: `${kycAdded.id}-signature`, name: "signature", value: expect.stringMatching(/^0x[0-9a-f]{130}$/) },
          { id: `${kycAdded.id}-data`, name: "data", value: expect.stringMatching(/^0x/) },
          { id: `${kycAdded.id}-uri`, name: "uri", value: "" },
        ],
      });
      expect(body.meta.facets.eventName).toEqual(
        expect.arrayContaining([
          { value: "ClaimAdded", count: 2 },
          { value: "ClaimChanged", count: 1 },
          { value: "ClaimRevoked", count: 1 },
        ]),
      );
      expect(body.meta.facets.topic).toEqual(
        expect.arrayContaining([
          { value: KYC, count: 2 },
          { value: AML, count: 2 },
        ]),
      );
    });

    it("filters by eventName, topic, claimId, issuer, sender and block ranges; sorts by block", async () => {
      const events = async (query: string) => (await get(`${path()}?${query}`)).body.data;
      const all = await events("sort=blockNumber");
      expect(all.map((e: { eventName: string }) => e.eventName)).toEqual([
        "ClaimAdded",
        "ClaimChanged",
        "ClaimAdded",
        "ClaimRevoked",
      ]);
      expect(await events("filter[eventName]=ClaimChanged")).toHaveLength(1);
      expect(await events(`filter[topic]=${KYC}`)).toHaveLength(2);
      expect(await events(`filter[claimId]=${all[0].claimId.toUpperCase().replace("0X", "0x")}`)).toHaveLength(2);
      expect(await events(`filter[issuerAddress]=${issuerA}`)).toHaveLength(4);
      expect(await events(`filter[senderAddress]=${signerA}`)).toHaveLength(4);
      expect(await events(`filter[blockNumber][gte]=${all[2].blockNumber}`)).toHaveLength(2);
      expect(await events(`filter[blockNumber][between]=${all[1].blockNumber},${all[2].blockNumber}`)).toHaveLength(2);
      const since = encodeURIComponent(new Date(Date.parse(all[0].blockTimestamp)).toISOString());
      expect(await events(`filter[blockTimestamp][gte]=${since}`)).toHaveLength(4);
      expect(await events("filter[blockTimestamp][lt]=2000-01-01T00:00:00Z")).toHaveLength(0);

      const bob = await get(`/api/v2/system/identities/${identityOf.bob}/claim-events`);
      expect(bob.body.data.map((e: { eventName: string }) => e.eventName)).toEqual(["ClaimRemoved", "ClaimAdded"]);
      const bad = await get(`${path()}?filter[eventName]=KeyAdded`);
      expect(bad.status).toBe(400);
    });

    it("answers not-found for an identity outside the caller's system, and 400 for a malformed address", async () => {
      const foreign = await get(path(), keys.identityManagerB);
      expect([foreign.status, foreign.body.code]).toEqual([404, "IDENTITY_NOT_FOUND"]);
      const wallet = await get(`/api/v2/system/identities/${ALICE}/claim-events`);
      expect([wallet.status, wallet.body.code]).toEqual([404, "IDENTITY_NOT_FOUND"]);
      expect((await get("/api/v2/system/identities/0x1234/claim-events")).status).toBe(400);
      expect((await get(path(), keys.memberA)).status).toBe(403);
    });
  });

  describe("statistics", () => {
    const stats = (path: string, key = keys.memberA) => get(`/api/v2/system/stats/${path}`, key);

    it("counts identities: created, registered and pending (each organisation its own)", async () => {
      // A: Carol, Alice, Bob registered; A's claim issuer identity created, not registered.
      expect((await stats("identity-count")).body.data).toEqual({
        userIdentitiesCreatedCount: 4,
        activeUserIdentitiesCount: 3,
        pendingRegistrationsCount: 1,
      });
      expect((await stats("identity-count", keys.ownerB)).body.data).toEqual({
        userIdentitiesCreatedCount: 2,
        activeUserIdentitiesCount: 1,
        pendingRegistrationsCount: 1,
      });
    });

    it("snapshots claims, trusted issuers and topic schemes", async () => {
      expect((await stats("claim-stat-snapshots/current")).body).toEqual({
        data: { totalIssuedClaims: 6, totalActiveClaims: 3, totalRemovedClaims: 1, totalRevokedClaims: 2 },
        links: { self: "/v2/system/stats/claim-stat-snapshots/current" },
      });
      expect((await stats("trusted-issuer-stat-snapshots/current")).body.data).toEqual({
        totalAddedTrustedIssuers: 2,
        totalActiveTrustedIssuers: 1,
        totalRemovedTrustedIssuers: 1,
      });
      expect((await stats("topic-scheme-stat-snapshots/current")).body.data).toEqual({
        totalRegisteredTopicSchemes: 6,
        totalActiveTopicSchemes: 5,
        totalRemovedTopicSchemes: 1,
      });
      expect((await stats("claim-stat-snapshots/current", keys.ownerB)).body.data).toEqual({
        totalIssuedClaims: 1,
        totalActiveClaims: 1,
        totalRemovedClaims: 0,
        totalRevokedClaims: 0,
      });
      expect((await stats("trusted-issuer-stat-snapshots/current", keys.ownerB)).body.data).toEqual({
        totalAddedTrustedIssuers: 1,
        totalActiveTrustedIssuers: 1,
        totalRemovedTrustedIssuers: 0,
      });
      expect((await stats("topic-scheme-stat-snapshots/current", keys.ownerB)).body.data).toEqual({
        totalRegisteredTopicSchemes: 1,
        totalActiveTopicSchemes: 1,
        totalRemovedTopicSchemes: 0,
      });
    });

    it("gives ranges with every bucket, the last at the current totals; from after to is refused", async () => {
      const from = new Date(started.getTime() - 2 * 3600_000).toISOString();
      const to = new Date().toISOString();
      const { status, body } = await stats(`claim-stat-ranges?interval=hour&from=${from}&to=${to}`);
      expect(status).toBe(200);
      expect(body.data.range).toEqual({ interval: "hour", from, to, isPreset: false });
      const points = body.data.data;
      expect(points.length).toBeGreaterThanOrEqual(3);
      expect(points[0]).toEqual({
        timestamp: expect.any(String),
        totalIssuedClaims: 0,
        totalActiveClaims: 0,
        totalRemovedClaims: 0,
        totalRevokedClaims: 0,
      });
      expect(points.at(-1)).toMatchObject({ totalIssuedClaims: 6, totalActiveClaims: 3 });
      expect(Date.parse(points[1].timestamp) - Date.parse(points[0].timestamp)).toBe(3600_000);

      for (const slug of [
        "claim-stat-ranges",
        "trusted-issuer-stat-ranges",
        "topic-scheme-stat-ranges",
        "identity-stat-timeseries",
      ]) {
        const backwards = await stats(`${slug}?interval=day&from=${to}&to=${from}`);
        expect([backwards.status, backwards.body.code], slug).toEqual([400, "BAD_REQUEST"]);
        expect(backwards.body.data.issues[0].path).toBe("from");
        expect((await stats(`${slug}?from=${from}&to=${to}`)).status).toBe(400);
        expect((await stats(`${slug}?interval=week&from=${from}&to=${to}`)).status).toBe(400);
      }
      const huge = await stats(`claim-stat-ranges?interval=hour&from=2000-01-01T00:00:00Z&to=${to}`);
      expect(huge.status).toBe(400);

      const issuers = await stats(`trusted-issuer-stat-ranges?interval=day&from=${from}&to=${to}`);
      expect(issuers.body.data.data.at(-1)).toMatchObject({
        totalAddedTrustedIssuers: 2,
        totalActiveTrustedIssuers: 1,
      });
      const identities = await stats(`identity-stat-timeseries?interval=day&from=${from}&to=${to}`);
      expect(identities.body.data.identityStats.at(-1)).toEqual({
        timestamp: expect.any(String),
        activeUserIdentitiesCount: 3,
      });
    });

    it("resolves the presets trailing24Hours (24 hourly buckets) and trailing7Days (7 daily buckets)", async () => {
      for (const family of ["claim-stat", "trusted-issuer-stat", "topic-scheme-stat"]) {
        const hourly = await stats(`${family}-range-presets/trailing24Hours`);
        expect(hourly.status).toBe(200);
        expect(hourly.body.data.range).toMatchObject({ interval: "hour", isPreset: true });
        expect(hourly.body.data.data).toHaveLength(24);
        const daily = await stats(`${family}-range-presets/trailing7Days`);
        expect(daily.body.data.range).toMatchObject({ interval: "day", isPreset: true });
        expect(daily.body.data.data).toHaveLength(7);
        expect(Date.parse(daily.body.data.range.to) - Date.parse(daily.body.data.range.from)).toBeLessThan(
          7 * 86_400_000,
        );
      }
      const topics = await stats("topic-scheme-stat-range-presets/trailing24Hours");
      expect(topics.body.data.data.at(-1)).toMatchObject({
        totalRegisteredTopicSchemes: 6,
        totalActiveTopicSchemes: 5,
      });
      const identities = await stats("identity-stat-timeseries/presets/trailing7Days");
      expect(identities.body.data.identityStats).toHaveLength(7);
      expect(identities.body.data.identityStats.at(-1).activeUserIdentitiesCount).toBe(3);
      expect((await stats("identity-stat-timeseries/presets/trailing30Days")).status).toBe(400);
    });

    it("lists active topics without any active claim on the chain (B's residency claim covers A's topic)", async () => {
      const { body } = await stats("topic-scheme-claims-coverage");
      expect(body.data.totalActiveTopicSchemes).toBe(5);
      expect(body.data.missingTopics).toEqual([
        { id: toHex(BigInt(AML), { size: 32 }), topicId: AML, name: "aml", signature: "bool cleared", isGlobal: true },
        {
          id: toHex(topicId("pep"), { size: 32 }) as Hex,
          topicId: topicId("pep").toString(),
          name: "pep",
          signature: "bool exposed, string role",
          isGlobal: true,
        },
      ]);
      const b = await stats("topic-scheme-claims-coverage", keys.ownerB);
      expect(b.body.data).toEqual({ totalActiveTopicSchemes: 1, missingTopics: [] });
    });

    it("counts assets by the country of their registered identity", async () => {
      expect((await stats("country-asset-count")).body.data).toEqual({
        totalsByCountry: { [String(BELGIUM)]: 1 },
        totalCountries: 1,
        totalAssets: 2,
      });
      expect((await stats("country-asset-count", keys.ownerB)).body.data).toEqual({
        totalsByCountry: {},
        totalCountries: 0,
        totalAssets: 0,
      });
    });

    it("keeps a snapshot per index version: the first read after a COMPLETED write counts it", async () => {
      const snapshot = async () => (await stats("topic-scheme-stat-snapshots/current", keys.ownerB)).body.data;
      const before = await snapshot();
      expect(await snapshot()).toEqual(before);
      await write("POST", "/api/v2/system/topic-schemes", { name: "late", signature: "string note" }, keys.ownerB);
      expect(await snapshot()).toEqual({
        ...before,
        totalRegisteredTopicSchemes: before.totalRegisteredTopicSchemes + 1,
        totalActiveTopicSchemes: before.totalActiveTopicSchemes + 1,
      });
    });
  });
});
