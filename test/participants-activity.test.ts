// Participants and activity end to end over HTTP against the real stack: two organisations, people with custody
// wallets and roles, identities registered, claims added, changed and revoked, tokens minted and transferred; then
// the participant directory (purpose, kinds, sorts, search, eligibility), address kinds, participant and account
// activity feeds with their matching rules, metrics, permissions and the organisations' isolation.

import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  http,
  parseAbi,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddonRegistryAbi } from "../abis/AddonRegistry.ts";
import { TokenAbi } from "../abis/Token.ts";
import { ADDON_CONTRACTS } from "../scripts/contracts/platform-contracts.ts";
import { type AccountAbstraction, deployAccountAbstraction } from "./support/account-abstraction.ts";
import { anvilAccount, keyedApi } from "./support/api-flows.ts";
import { FORWARD_REQUEST_TYPES } from "./support/chain.ts";
import { type Member, type Operator, operator } from "./support/organizations.ts";
import { bootStack, stackChain, type TestStack } from "./support/stack.ts";

const BELGIUM = 56;
const IRAN = 364;

describe("participants and activity, end to end over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  let orgA: string;
  let orgB: string;
  let ownerA: string;
  let signerA: string;
  let mia: Member; // a plain member of A, onboarded with a Belgian identity
  let ivy: Member; // A's identity manager, onboarded with an Iranian identity
  let claims: Member; // A's claim issuer (a person), no identity
  let ownerB: Member;
  let idmB: Member;
  let deposit: string;
  let blocked: string;
  let depositB: string;
  let miaIdentity: string;
  let issuerA: string;

  const { call, write } = keyedApi(
    () => stack,
    () => ownerA,
  );
  const get = (path: string, key = ownerA) => call("GET", path, undefined, key);
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  // An owner without activity:read-others (the first-start owner holds every role), made when first needed.
  let plainOwner: Promise<Member> | undefined;
  const plainOwnerKey = async () => {
    plainOwner ??= ops.member(orgA, "owner", "Olive Owner");
    return (await plainOwner).key;
  };
  const names = (rows: { eventName: string }[]) => rows.map((r) => r.eventName);

  beforeAll(async () => {
    stack = await bootStack();
    ops = operator(stack);
    orgA = stack.platform.credentials.organizationId;
    ownerA = stack.platform.credentials.apiKey;
    mia = await ops.member(orgA, "member", "Mia Member");
    ivy = await ops.member(orgA, "identityManager", "Ivy Identity");
    claims = await ops.member(orgA, "claimIssuer", "Cleo Claims");
    orgB = await ops.organization("Organisation B");
    ownerB = await ops.member(orgB, "owner", "Bo Owner");
    idmB = await ops.member(orgB, "identityManager", "Bea Identity");
    signerA = (await ops.signerAccount(orgA)).address.toLowerCase();
  }, 240_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  describe("the world", () => {
    it("gives every member a custody wallet of their own", async () => {
      const wallets = new Set([mia.wallet, ivy.wallet, claims.wallet, signerA]);
      expect(wallets.size).toBe(4);
      for (const wallet of wallets) expect(wallet).toMatch(/^0x[0-9a-f]{40}$/);
    });

    it("onboards identities, sets up a claim issuer and a kyc topic, and adds, changes and revokes claims", async () => {
      miaIdentity = (await write("POST", "/api/v2/system/identities", { wallet: mia.wallet, country: BELGIUM }))
        .identity;
      await write("POST", "/api/v2/system/identities", { wallet: ivy.wallet, country: IRAN });
      await write("POST", "/api/v2/system/topic-schemes", { name: "kyc", signature: "string level" });
      issuerA = (await write("POST", "/api/v2/system/claim-issuer")).identity;
      await write("POST", "/api/v2/system/trusted-issuers", { claimTopics: ["kyc"] });
      await write("POST", "/api/v2/system/identity-claims", { wallet: mia.wallet, topic: "kyc", values: ["basic"] });
      await write("POST", "/api/v2/system/identity-claims", { wallet: mia.wallet, topic: "kyc", values: ["full"] });
      await write("POST", "/api/v2/system/identity-claim-revocations", { wallet: mia.wallet, topic: "kyc" });
    });

    it("creates tokens, mints to Mia and transfers to her; organisation B has its own token", async () => {
      deposit = (await write("POST", "/api/v2/tokens", { templateId: "deposit", name: "Euro Deposit", symbol: "EURD" }))
        .tokenAddress;
      blocked = (
        await write("POST", "/api/v2/tokens", {
          templateId: "deposit",
          name: "Zeta Blocked",
          symbol: "ZBL",
          complianceTemplateId: "sanctioned-countries-blocked",
        })
      ).tokenAddress;
      await write("POST", `/api/v2/tokens/${deposit}/mint`, {
        recipients: [mia.wallet, signerA],
        amounts: ["5", "50"],
      });
      await write("POST", `/api/v2/tokens/${deposit}/transfer`, { recipients: [mia.wallet], amounts: ["7"] });
      depositB = (
        await write("POST", "/api/v2/tokens", { templateId: "deposit", name: "Krone B", symbol: "KRB" }, ownerB.key)
      ).tokenAddress;
      await write(
        "POST",
        `/api/v2/tokens/${depositB}/mint`,
        { recipients: [ownerB.wallet], amounts: ["9"] },
        ownerB.key,
      );
    });
  });

  describe("GET /api/v2/participants", () => {
    it("requires a purpose", async () => {
      const missing = await get("/api/v2/participants");
      expect([missing.status, missing.body.code]).toEqual([400, "BAD_REQUEST"]);
      const wrong = await get("/api/v2/participants?purpose=everything");
      expect(wrong.status).toBe(400);
    });

    it("lists people, the organisation, assets and the claim issuer, by displayName ascending", async () => {
      const { status, body } = await get("/api/v2/participants?purpose=transfer&page[limit]=200");
      expect(status).toBe(200);
      const byId = Object.fromEntries(body.data.map((p: { id: string }) => [p.id, p]));
      expect(byId[mia.userId]).toEqual({
        id: mia.userId,
        kind: "person",
        address: mia.wallet,
        displayName: "Mia Member",
      });
      expect(byId[orgA]).toMatchObject({ kind: "organisation", address: signerA });
      expect(byId[deposit.toLowerCase()]).toEqual({
        id: deposit.toLowerCase(),
        kind: "asset",
        address: deposit.toLowerCase(),
        displayName: "Euro Deposit",
      });
      expect(byId[issuerA.toLowerCase()]).toMatchObject({ kind: "claim_issuer", address: signerA });
      const display = body.data.map((p: { displayName: string }) => p.displayName);
      expect(display).toEqual([...display].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(body.meta.total).toBe(body.data.length);
      expect(body.meta.facets).toBeUndefined();
      // Organisation B's people and tokens are not A's participants.
      expect(byId[ownerB.userId]).toBeUndefined();
      expect(byId[depositB.toLowerCase()]).toBeUndefined();
    });

    it("resolves the address for each purpose", async () => {
      const identity = await get(`/api/v2/participants?purpose=identity&filter[q]=Mia`);
      expect(identity.body.data).toEqual([
        { id: mia.userId, kind: "person", address: miaIdentity.toLowerCase(), displayName: "Mia Member" },
      ]);
      const noIdentity = await get(`/api/v2/participants?purpose=identity&filter[q]=Cleo`);
      expect(noIdentity.body.data[0]).toMatchObject({ id: claims.userId, address: null });
      const participant = await get(`/api/v2/participants?purpose=participant&filter[kind]=claim_issuer`);
      expect(participant.body.data).toEqual([
        expect.objectContaining({ id: issuerA.toLowerCase(), address: issuerA.toLowerCase() }),
      ]);
    });

    it("filters by kind (eq and inArray), searches name and address, sorts with sortBy and sortDirection", async () => {
      const assets = await get("/api/v2/participants?purpose=transfer&filter[kind]=asset");
      expect(ids(assets.body.data)).toEqual([deposit.toLowerCase(), blocked.toLowerCase()]);
      const desc = await get("/api/v2/participants?purpose=transfer&filter[kind]=asset&sortDirection=desc");
      expect(ids(desc.body.data)).toEqual([blocked.toLowerCase(), deposit.toLowerCase()]);
      const both = await get("/api/v2/participants?purpose=transfer&filter[kind][inArray]=asset,organisation");
      expect(new Set(both.body.data.map((p: { kind: string }) => p.kind))).toEqual(new Set(["asset", "organisation"]));
      expect(both.body.meta.total).toBe(3);
      const byKind = await get("/api/v2/participants?purpose=transfer&sortBy=kind&page[limit]=200");
      const kinds = byKind.body.data.map((p: { kind: string }) => p.kind);
      expect(kinds).toEqual([...kinds].sort());
      const byAddress = await get(`/api/v2/participants?purpose=transfer&filter[q]=${mia.wallet.slice(2, 12)}`);
      expect(ids(byAddress.body.data)).toEqual([mia.userId]);
      const badSort = await get("/api/v2/participants?purpose=transfer&sortBy=email");
      expect(badSort.status).toBe(400);
      const badKind = await get("/api/v2/participants?purpose=transfer&filter[kind]=robot");
      expect(badKind.status).toBe(400);
      const refused = await get("/api/v2/participants?purpose=transfer&limit=5");
      expect([refused.status, refused.body.code]).toEqual([400, "BAD_REQUEST"]);
      const paged = await get("/api/v2/participants?purpose=transfer&page[limit]=2&page[offset]=0");
      expect(paged.body.data).toHaveLength(2);
      expect(paged.body.links.next).toContain("page%5Boffset%5D=2");
    });

    it("hides participants ineligible for a token action and counts them; reveal lists them flagged", async () => {
      const people = "filter[kind]=person";
      const hidden = await get(
        `/api/v2/participants?purpose=transfer&${people}&eligibleForToken[tokenAddress]=${blocked}&eligibleForToken[action]=mint`,
      );
      expect(hidden.status).toBe(200);
      const shown = ids(hidden.body.data);
      expect(shown).toContain(mia.userId);
      expect(shown).not.toContain(ivy.userId);
      expect(hidden.body.meta.eligibilityHiddenCount).toBeGreaterThanOrEqual(1);
      expect(hidden.body.meta.total).toBe(shown.length);
      const revealed = await get(
        `/api/v2/participants?purpose=transfer&${people}&eligibleForToken[tokenAddress]=${blocked}&eligibleForToken[action]=mint&eligibleForToken[reveal]=true`,
      );
      const ivyRow = revealed.body.data.find((p: { id: string }) => p.id === ivy.userId);
      expect(ivyRow).toMatchObject({ eligible: false });
      expect(revealed.body.data.find((p: { id: string }) => p.id === mia.userId)).toMatchObject({ eligible: true });
      expect(revealed.body.meta.eligibilityHiddenCount).toBeUndefined();
      const transfer = await get(
        `/api/v2/participants?purpose=transfer&${people}&eligibleForToken[tokenAddress]=${blocked}`,
      );
      expect(ids(transfer.body.data)).not.toContain(ivy.userId);
      const foreign = await get(`/api/v2/participants?purpose=transfer&eligibleForToken[tokenAddress]=${depositB}`);
      expect([foreign.status, foreign.body.code]).toEqual([404, "TOKEN_NOT_FOUND"]);
    });

    it("shows only assets (and addons) to callers without userSearch", async () => {
      const { body } = await get("/api/v2/participants?purpose=transfer&page[limit]=200", mia.key);
      // The two deposit tokens, and the addons every system is created with.
      expect(new Set(body.data.map((p: { kind: string }) => p.kind))).toEqual(new Set(["asset", "addon"]));
      expect(body.data.filter((p: { kind: string }) => p.kind === "asset")).toHaveLength(2);
      expect(body.meta.total).toBe(5);
    });

    it("organisation B sees its own participants only", async () => {
      const { body } = await get("/api/v2/participants?purpose=transfer&page[limit]=200", ownerB.key);
      const found = ids(body.data);
      expect(found).toEqual(expect.arrayContaining([ownerB.userId, idmB.userId, orgB, depositB.toLowerCase()]));
      expect(found).not.toContain(mia.userId);
      expect(found).not.toContain(deposit.toLowerCase());
    });
  });

  describe("GET /api/v2/participants/address-kinds", () => {
    it("maps every wallet of the organisation to its kind, for callers with userSearch", async () => {
      const { status, body } = await get("/api/v2/participants/address-kinds");
      expect(status).toBe(200);
      for (const wallet of [mia.wallet, ivy.wallet, claims.wallet, signerA]) expect(body.data[wallet]).toBe("eoa");
      expect(body.data[ownerB.wallet]).toBeUndefined();
      const plain = await get("/api/v2/participants/address-kinds", mia.key);
      expect(plain.body.data).toEqual({});
    });
  });

  describe("participant activity", () => {
    it("holds every event that names one of the participant's wallets, newest first, with every field", async () => {
      const { status, body } = await get(`/api/v2/participants/${mia.userId}/activities?page[limit]=200`, mia.key);
      expect(status).toBe(200);
      expect(names(body.data).sort()).toEqual(
        [
          "ClaimAdded",
          "ClaimChanged",
          "ClaimRevoked",
          "IdentityCreated",
          "IdentityRegistered",
          "MintCompleted",
          "TransferCompleted",
        ].sort(),
      );
      const times = body.data.map((e: { blockTimestamp: string; blockNumber: string }) => Number(e.blockNumber));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(body.meta.total).toBe(7);
      expect(body.meta.facets.eventName).toEqual(
        expect.arrayContaining([
          { value: "ClaimAdded", count: 1 },
          { value: "MintCompleted", count: 1 },
        ]),
      );
      const transfer = body.data.find((e: { eventName: string }) => e.eventName === "TransferCompleted");
      expect(transfer).toMatchObject({
        emitter: { id: deposit.toLowerCase() },
        sender: { id: signerA },
        displaySender: { id: signerA },
        metaTxSigner: null,
        relayerKind: null,
        relayer: null,
        userOpHash: null,
        paymaster: null,
        actualGasCost: null,
        involved: [{ id: signerA }, { id: mia.wallet }],
      });
      expect(transfer.id).toBe(`${transfer.transactionHash}-${transfer.txIndex}`);
      expect(transfer.values).toEqual(
        expect.arrayContaining([{ id: `${transfer.id}-amount`, name: "amount", value: "7" }]),
      );
      expect(Date.parse(transfer.blockTimestamp)).toBeGreaterThan(0);
    });

    it("filters by eventName, searches, sorts by blockNumber and pages", async () => {
      const path = `/api/v2/participants/${mia.userId}/activities`;
      const claimsOnly = await get(`${path}?filter[eventName]=ClaimAdded`, mia.key);
      expect(names(claimsOnly.body.data)).toEqual(["ClaimAdded"]);
      const several = await get(`${path}?filter[eventName][inArray]=ClaimAdded,ClaimRevoked`, mia.key);
      expect(several.body.meta.total).toBe(2);
      const searched = await get(`${path}?filter[q]=transfer`, mia.key);
      expect(names(searched.body.data)).toEqual(["TransferCompleted"]);
      const oldest = await get(`${path}?sort=blockNumber&page[limit]=1`, mia.key);
      expect(oldest.body.data[0].eventName).toBe("IdentityCreated");
      expect(oldest.body.links.next).not.toBeNull();
      const bad = await get(`${path}?sort=eventName`, mia.key);
      expect(bad.status).toBe(400);
    });

    it("lets identity managers and claim issuers read others' feeds; others get a valid empty feed", async () => {
      const path = `/api/v2/participants/${mia.userId}/activities`;
      expect((await get(path, ivy.key)).body.meta.total).toBe(7);
      expect((await get(path, claims.key)).body.meta.total).toBe(7);
      const owner = await get(path, await plainOwnerKey());
      expect(owner.status).toBe(200);
      expect(owner.body).toMatchObject({ data: [], meta: { total: 0 } });
      const other = await get(`/api/v2/participants/${ivy.userId}/activities`, mia.key);
      expect(other.body).toMatchObject({ data: [], meta: { total: 0 } });
    });

    it("answers 404 SVC-0524 for participants outside the organisation", async () => {
      for (const id of [ownerB.userId, orgB, depositB, "no-such-participant"]) {
        const { status, body } = await get(`/api/v2/participants/${id}/activities`, ivy.key);
        expect([status, body.code, body.data.id]).toEqual([404, "PARTICIPANT_NOT_FOUND", "SVC-0524"]);
        const metrics = await get(`/api/v2/participants/${id}/activity-metrics`, ivy.key);
        expect(metrics.status).toBe(404);
      }
    });

    it("gives an asset's feed its token events", async () => {
      const { body } = await get(`/api/v2/participants/${deposit}/activities?page[limit]=200`, ivy.key);
      expect(names(body.data)).toEqual(expect.arrayContaining(["TokenCreated", "MintCompleted", "TransferCompleted"]));
      expect(body.data.every((e: { eventName: string }) => !e.eventName.startsWith("Claim"))).toBe(true);
    });

    it("counts per hour or day, every bucket filled; from after to is an empty series; no access is flat", async () => {
      const path = `/api/v2/participants/${mia.userId}/activity-metrics`;
      const preset = await get(`${path}?range[interval]=hour`, mia.key);
      expect(preset.status).toBe(200);
      expect(preset.body.data.range).toMatchObject({ interval: "hour", isPreset: true });
      expect(preset.body.data.timeSeries).toHaveLength(24);
      expect(preset.body.data.count).toBe(7);
      expect(preset.body.data.timeSeries.reduce((s: number, p: { count: number }) => s + p.count, 0)).toBe(7);
      const week = await get(path, mia.key);
      expect(week.body.data.range).toMatchObject({ interval: "day", isPreset: true });
      expect(week.body.data.timeSeries).toHaveLength(7);
      expect(week.body.data.count).toBe(7);

      const from = new Date(Date.now() - 3 * 3_600_000).toISOString();
      const to = new Date(Date.now() + 3_600_000).toISOString();
      const explicit = await get(
        `${path}?range[interval]=hour&range[from]=${from}&range[to]=${to}&range[isPreset]=false`,
        mia.key,
      );
      expect(explicit.body.data.range).toMatchObject({ interval: "hour", isPreset: false });
      expect(explicit.body.data.timeSeries).toHaveLength(5);
      expect(explicit.body.data.timeSeries.filter((p: { count: number }) => p.count === 0).length).toBeGreaterThan(0);
      expect(explicit.body.data.count).toBe(7);

      const reversed = await get(`${path}?range[interval]=day&range[from]=${to}&range[to]=${from}`, mia.key);
      expect(reversed.status).toBe(200);
      expect(reversed.body.data).toMatchObject({ timeSeries: [], count: 0 });

      const denied = await get(path, await plainOwnerKey());
      expect(denied.body.data.count).toBe(0);
      expect(denied.body.data.timeSeries).toHaveLength(7);
      expect(denied.body.data.timeSeries.every((p: { count: number }) => p.count === 0)).toBe(true);

      const bad = await get(`${path}?range[interval]=week`, mia.key);
      expect([bad.status, bad.body.code]).toEqual([400, "BAD_REQUEST"]);
      const huge = await get(`${path}?range[interval]=hour&range[from]=2000-01-01T00:00:00Z&range[to]=${to}`, mia.key);
      expect(huge.status).toBe(400);
    });
  });

  describe("account activity", () => {
    const path = (address: string) => `/api/v2/system/accounts/${address}/activities?page[limit]=200`;

    it("matches sender, account, emitter, token, system or involved; scoped to the organisation's system", async () => {
      const own = await get(path(mia.wallet), mia.key);
      expect(own.body.meta.total).toBe(7);
      const token = await get(path(deposit), ivy.key);
      expect(names(token.body.data)).toEqual(expect.arrayContaining(["TokenCreated", "MintCompleted"]));
      const signer = await get(path(signerA), ivy.key);
      expect(names(signer.body.data)).toEqual(expect.arrayContaining(["TopicSchemeRegistered", "TrustedIssuerAdded"]));
      const identity = await get(path(miaIdentity), ivy.key);
      expect(names(identity.body.data)).toEqual(expect.arrayContaining(["ClaimAdded", "IdentityRegistered"]));
      // Organisation B's token is no address of A's system: an empty feed for A, its events for B.
      const foreign = await get(path(depositB), ivy.key);
      expect(foreign.body).toMatchObject({ data: [], meta: { total: 0 } });
      const theirs = await get(path(depositB), idmB.key);
      expect(names(theirs.body.data)).toEqual(expect.arrayContaining(["MintCompleted"]));
      const systemA = (await get("/api/v2/participants?purpose=transfer&filter[kind]=organisation")).body;
      expect(systemA.data).toHaveLength(1);
      // The system's own account feed is every event of the system (the index links the system only where an event
      // names it): the token's, the registries', the identities' events, all of them, and none of B's.
      const chainA = await ops.db.platform
        .selectFrom("organizationChains")
        .select("systemAddress")
        .where("organizationId", "=", orgA)
        .executeTakeFirstOrThrow();
      const system = (await get(path(chainA.systemAddress as string), ivy.key)).body;
      expect(names(system.data)).toEqual(
        expect.arrayContaining([
          "TokenCreated",
          "MintCompleted",
          "TrustedIssuerAdded",
          "ClaimAdded",
          "IdentityRegistered",
        ]),
      );
      const everyEvent = await ops.db
        .ledgerOn(stack.platform.credentials.chainId)
        .selectFrom("activityEvent")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("system", "=", chainA.systemAddress!.toLowerCase() as `0x${string}`)
        .executeTakeFirstOrThrow();
      expect(system.meta.total).toBe(Number(everyEvent.n));
      expect(system.meta.total).toBeGreaterThan((await get(path(deposit), ivy.key)).body.meta.total);
      // The feed of `address` holds every event of the system whose `column` is that address, once.
      const holdsEveryEventBy = async (column: "logToken" | "sender", address: string) => {
        const events = await ops.db
          .ledgerOn(stack.platform.credentials.chainId)
          .selectFrom("activityEvent")
          .select("id")
          .where(column, "=", address.toLowerCase() as `0x${string}`)
          .where("system", "=", chainA.systemAddress!.toLowerCase() as `0x${string}`)
          .execute();
        const feed = (await get(path(address), ivy.key)).body;
        const ids = feed.data.map((e: { id: string }) => e.id);
        expect(events.length).toBeGreaterThan(1);
        expect(ids).toEqual(expect.arrayContaining(events.map((e) => e.id)));
        expect(new Set(ids).size).toBe(ids.length);
        expect(feed.meta.total).toBe(ids.length);
      };
      // A token's feed, the events of its own log (read by log_token: the index links none); an address's, the events
      // it sent (read by sender: the index links no sender).
      await holdsEveryEventBy("logToken", deposit);
      await holdsEveryEventBy("sender", signerA);
      expect(system.data.map((e: { id: string }) => e.id)).not.toContain(undefined);
    });

    it("gives callers without read access a valid empty feed and a flat series; refuses malformed addresses", async () => {
      const other = await get(path(ivy.wallet), mia.key);
      expect(other.status).toBe(200);
      expect(other.body).toMatchObject({ data: [], meta: { total: 0, facets: { eventName: [] } } });
      const metrics = await get(`/api/v2/system/accounts/${ivy.wallet}/activity-metrics?range[interval]=hour`, mia.key);
      expect(metrics.body.data.count).toBe(0);
      expect(metrics.body.data.timeSeries).toHaveLength(24);
      const own = await get(`/api/v2/system/accounts/${getAddress(mia.wallet)}/activity-metrics`, mia.key);
      expect(own.body.data.count).toBe(7);
      const bad = await get("/api/v2/system/accounts/0x1234/activities", mia.key);
      expect([bad.status, bad.body.code]).toEqual([400, "BAD_REQUEST"]);
    });
  });
  describe("relayed operations and addons", () => {
    const FORWARDER_ABI = parseAbi([
      "function nonces(address owner) view returns (uint256)",
      "function execute((address from, address to, uint256 value, uint256 gas, uint48 deadline, bytes data, bytes signature) request) payable",
    ]);
    let relayer: string;
    let addon: string;

    async function waitForEvent(path: string, eventName: string, key: string) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { body } = await get(`${path}?filter[eventName]=${eventName}`, key);
        if (body.meta?.total > 0) return body.data[0];
        if (Date.now() > deadline) throw new Error(`${eventName} never reached ${path}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    it("records a forwarder-relayed write with its meta-transaction signer, relayer and kind", async () => {
      const { chainId, rpcUrl } = stack.platform.credentials;
      const chain = stackChain(stack);
      const client = createPublicClient({ chain, transport: http(rpcUrl) });
      const signer = await ops.signerAccount(orgA);
      const relayAccount = anvilAccount(7);
      relayer = relayAccount.address.toLowerCase();
      const forwarder = getAddress((await get("/api/v2/system/directory", mia.key)).body.data.forwarder);
      const contracts = await ops.db.platform
        .selectFrom("organizationChains")
        .select("contracts")
        .where("organizationId", "=", orgA)
        .executeTakeFirstOrThrow();
      const registry = getAddress(contracts.contracts!.addonRegistry);
      const data = encodeFunctionData({
        abi: AddonRegistryAbi,
        functionName: "registerAddonType",
        args: ["relayed-addon", 2, getAddress(deposit), zeroAddress, false],
      });
      const nonce = await client.readContract({
        abi: FORWARDER_ABI,
        address: forwarder,
        functionName: "nonces",
        args: [signer.address],
      });
      const deadline = Math.floor(Date.now() / 1000) + 3600;
      const request = { from: signer.address, to: registry, value: 0n, gas: 1_000_000n, deadline, data };
      const signature = await signer.signTypedData({
        domain: { name: "Forwarder", version: "1", chainId, verifyingContract: forwarder },
        primaryType: "ForwardRequest",
        types: FORWARD_REQUEST_TYPES,
        message: { ...request, nonce },
      });
      const wallet = createWalletClient({ account: relayAccount, chain, transport: http(rpcUrl) });
      // Mined in one block after another transaction's log: the event's index in the block is not its txIndex.
      await stack.rpc("evm_setAutomine", [false]);
      let hash: `0x${string}`;
      try {
        await createWalletClient({ account: anvilAccount(8), chain, transport: http(rpcUrl) }).writeContract({
          abi: TokenAbi,
          address: getAddress(deposit),
          functionName: "approve",
          args: [relayAccount.address, 1n],
        });
        hash = await wallet.writeContract({
          abi: FORWARDER_ABI,
          address: forwarder,
          functionName: "execute",
          args: [{ ...request, signature }],
        });
        await stack.rpc("evm_mine");
      } finally {
        await stack.rpc("evm_setAutomine", [true]);
      }
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      const position = receipt.logs.findIndex((log) => getAddress(log.address) === registry);
      expect(receipt.logs[position]!.logIndex).toBeGreaterThan(position);

      const event = await waitForEvent(`/api/v2/system/accounts/${signerA}/activities`, "AddonTypeRegistered", ivy.key);
      expect(event).toMatchObject({
        transactionHash: hash,
        txIndex: String(position),
        id: `${hash}-${position}`,
        emitter: { id: registry.toLowerCase() },
        sender: { id: signerA },
        displaySender: { id: signerA },
        metaTxSigner: { id: signerA },
        relayerKind: "forwarder",
        relayer: { id: relayer },
        userOpHash: null,
        paymaster: null,
        actualGasCost: null,
      });
      expect(event.values).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: "name", value: "relayed-addon" })]),
      );
      // The relayer itself is no party to the event.
      const relayerFeed = await get(`/api/v2/system/accounts/${relayer}/activities`, ivy.key);
      expect(relayerFeed.body.meta.total).toBe(0);

      const create = await createWalletClient({ account: signer, chain, transport: http(rpcUrl) }).writeContract({
        abi: AddonRegistryAbi,
        address: registry,
        functionName: "createAddon",
        args: [
          (await client.readContract({ abi: AddonRegistryAbi, address: registry, functionName: "typeIds" })).at(-1)!,
          "Relay Addon",
          "0x",
        ],
      });
      await client.waitForTransactionReceipt({ hash: create });
      const created = await waitForEvent(
        `/api/v2/system/accounts/${signerA}/activities`,
        "AddonFactoryCreated",
        ivy.key,
      );
      expect(created).toMatchObject({ metaTxSigner: null, relayerKind: null, displaySender: { id: signerA } });
      addon = created.involved[0].id;
    });

    it("lists addons as participants for every caller, with their activity", async () => {
      const { body } = await get("/api/v2/participants?purpose=participant&filter[kind]=addon", mia.key);
      expect(body.data.find((p: { id: string }) => p.id === addon)).toEqual({
        id: addon,
        kind: "addon",
        address: addon,
        displayName: "Relay Addon",
      });
      // Beside those every system is created with (named as their type).
      expect(body.data.map((p: { displayName: string }) => p.displayName).sort()).toEqual(
        ["Relay Addon", ...Object.keys(ADDON_CONTRACTS)].sort(),
      );
      const feed = await get(`/api/v2/participants/${addon}/activities`, ivy.key);
      // Its registration also granted it the addon-factory role on the system's access manager.
      expect(names(feed.body.data).sort()).toEqual(["AddonFactoryCreated", "RoleGranted"]);
      const orgFeed = await get(
        `/api/v2/participants/${orgA}/activities?filter[eventName]=AddonTypeRegistered`,
        ivy.key,
      );
      expect(orgFeed.body.data[0]).toMatchObject({ relayerKind: "forwarder", metaTxSigner: { id: signerA } });
    });
  });
  describe("user operations (ERC-4337)", () => {
    let aa: AccountAbstraction;
    let smartAccount: string;
    const bundler = anvilAccount(5);
    const owner = anvilAccount(8);

    async function miaTransfers(path: string, key: string, count: number) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { body } = await get(`${path}?filter[eventName]=TransferCompleted&page[limit]=200`, key);
        if (body.meta?.total >= count) return body.data;
        if (Date.now() > deadline) throw new Error(`${count} transfers never reached ${path}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    it("records a sponsored and an unsponsored user operation with hash, account, bundler, paymaster and cost", async () => {
      aa = await deployAccountAbstraction(stackChain(stack), anvilAccount(6));
      smartAccount = (await aa.accountOf(owner.address)).toLowerCase();
      await write("POST", `/api/v2/tokens/${deposit}/mint`, { recipients: [smartAccount], amounts: ["10"] });
      const transfer = (amount: bigint) =>
        encodeFunctionData({ abi: TokenAbi, functionName: "transfer", args: [getAddress(mia.wallet), amount] });
      const sponsored = await aa.send({
        owner,
        bundler,
        target: getAddress(deposit),
        data: transfer(2n),
        sponsored: true,
      });
      const own = await aa.send({ owner, bundler, target: getAddress(deposit), data: transfer(1n), sponsored: false });

      const feed = await miaTransfers(`/api/v2/participants/${mia.userId}/activities`, mia.key, 3);
      const byHash = (hash: string) => feed.find((e: { transactionHash: string }) => e.transactionHash === hash);
      const common = {
        sender: { id: smartAccount },
        displaySender: { id: smartAccount },
        metaTxSigner: { id: smartAccount },
        relayerKind: "user-operation",
        relayer: { id: bundler.address.toLowerCase() },
      };
      expect(byHash(sponsored.transactionHash)).toMatchObject({
        ...common,
        userOpHash: sponsored.userOpHash,
        paymaster: { id: aa.paymaster.toLowerCase() },
        actualGasCost: expect.stringMatching(/^[1-9]\d*$/),
      });
      // The participant feed shows the gas cost of sponsored operations only; the account feed of every one.
      expect(byHash(own.transactionHash)).toMatchObject({
        ...common,
        userOpHash: own.userOpHash,
        paymaster: null,
        actualGasCost: null,
      });
      const accountFeed = await miaTransfers(`/api/v2/system/accounts/${mia.wallet}/activities`, mia.key, 3);
      const ownInAccountFeed = accountFeed.find(
        (e: { transactionHash: string }) => e.transactionHash === own.transactionHash,
      );
      expect(ownInAccountFeed).toMatchObject({
        userOpHash: own.userOpHash,
        actualGasCost: expect.stringMatching(/^[1-9]\d*$/),
      });
      // The direct transfer from the signer keeps its direct-transaction fields.
      const direct = feed.find((e: { relayerKind: string | null }) => e.relayerKind === null);
      expect(direct).toMatchObject({ userOpHash: null, metaTxSigner: null, displaySender: { id: signerA } });
    });
  });

  describe("results kept per index version", () => {
    it("answers a repeated read the same and shows a write in the first read after it is COMPLETED", async () => {
      const nia = await ops.member(orgA, "member", "Nia Newcomer");
      const feed = `/api/v2/participants/${nia.userId}/activities`;
      const metrics = `/api/v2/participants/${nia.userId}/activity-metrics?range[interval]=hour`;
      const before = await get(feed, nia.key);
      expect(before.body.meta.total).toBe(0);
      expect((await get(metrics, nia.key)).body.data.count).toBe(0);
      expect((await get(feed, nia.key)).body).toEqual(before.body);

      await write("POST", `/api/v2/tokens/${deposit}/mint`, { recipients: [nia.wallet], amounts: ["3"] });
      const after = await get(feed, nia.key);
      expect(after.body.meta.total).toBe(1);
      expect(names(after.body.data)).toEqual(["MintCompleted"]);
      expect((await get(metrics, nia.key)).body.data.count).toBe(1);
    });
  });
});
