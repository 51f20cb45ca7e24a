// The directory and the addon factories end to end over HTTP against the real stack: two organisations, each with
// its own system. The directory read is compared with the chain's own reads; addons are registered and created
// straight on chain by each organisation's signer (beside the three every system is created with), then listed,
// filtered, sorted, paged and read one by one, organisation A never seeing B's.
import {
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseEventLogs,
  stringToHex,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddonRegistryAbi } from "../abis/AddonRegistry.ts";
import { ComplianceModuleRegistryAbi } from "../abis/ComplianceModuleRegistry.ts";
import { DirectoryAbi } from "../abis/Directory.ts";
import { directoryKeyName } from "../domain/directory/directory-keys.ts";
import { ADDON_CONTRACTS } from "../scripts/contracts/platform-contracts.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { json, stackChain, type TestStack } from "./support/stack.ts";

const FACTORY = 1;
const SINGLETON = 2;
const typeIdOf = (name: string) => keccak256(stringToHex(name));
const UNREGISTERED = "0x000000000000000000000000000000000000dEaD";
/** The addon types (and their addons, named as the type) every system is created with, by name (code point order). */
const BUILT_IN = Object.keys(ADDON_CONTRACTS).sort();
/** Names in the lists' order by name: the database's, by code point (capitals first). */
const byName = (...names: string[]) => names.sort();
const isBuiltIn = (row: { name: string }) => BUILT_IN.includes(row.name);

describe("the directory and the addon factories, end to end over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  let orgA: string;
  let orgB: string;
  const keys: Record<string, string> = {};
  const contracts: Record<string, Record<string, string>> = {};
  let publicClient: ReturnType<typeof createPublicClient>;
  const addon: Record<string, { address: Address; tx: Hex }> = {};
  const impl: Record<string, Address> = {};

  async function get(path: string, key = keys.memberA) {
    const res = await stack.api(path, { key });
    return { status: res.status, body: await json(res) };
  }

  /** Polls `path` until `done` holds (the index follows the chain within a few blocks). */
  async function until(
    path: string,
    done: (body: { data: unknown; meta?: { total: number } }) => boolean,
    key?: string,
  ) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { body } = await get(path, key);
      if (done(body)) return body;
      if (Date.now() > deadline) throw new Error(`${path} still answers ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** A write to an organisation's addon registry, signed by its signer wallet; the receipt's logs. */
  async function addonWrite(org: string, functionName: string, args: readonly unknown[]) {
    const chain = stackChain(stack);
    // Each write waits for its receipt before the next: one signer's transactions reach anvil in nonce order.
    const wallet = createWalletClient({ account: await ops.signerAccount(org), chain, transport: http() });
    const hash = await wallet.writeContract({
      address: getAddress(contracts[org].addonRegistry),
      abi: AddonRegistryAbi,
      // biome-ignore lint/suspicious/noExplicitAny: one helper for the registry's writes
      functionName: functionName as any,
      // biome-ignore lint/suspicious/noExplicitAny: one helper for the registry's writes
      args: args as any,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    return { hash, logs: parseEventLogs({ abi: AddonRegistryAbi, logs: receipt.logs }) };
  }

  async function createAddon(org: string, typeName: string, name: string) {
    const { hash, logs } = await addonWrite(org, "createAddon", [typeIdOf(typeName), name, "0x"]);
    const created = logs.find((log) => log.eventName === "AddonFactoryCreated");
    if (created?.eventName !== "AddonFactoryCreated") throw new Error("no AddonFactoryCreated");
    return { address: created.args.addon, tx: hash };
  }

  beforeAll(async () => {
    stack = await organizationStack("directory");
    ops = operator(stack);
    publicClient = createPublicClient({ transport: http(stack.platform.credentials.rpcUrl), pollingInterval: 50 });
    orgA = stack.platform.credentials.organizationId;
    orgB = await ops.organization("Organisation B");
    keys.memberA = await ops.keyFor(orgA, "member");
    keys.auditorA = await ops.keyFor(orgA, "auditor");
    keys.memberB = await ops.keyFor(orgB, "member");
    const rows = await ops.db.platform
      .selectFrom("organizationChains")
      .select(["organizationId", "contracts"])
      .execute();
    for (const row of rows) if (row.contracts) contracts[row.organizationId] = { ...row.contracts };
  }, 180_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  describe("GET /api/v2/system/directory", () => {
    it("answers the organisation's directory: every field is the chain's entry, type catalogues included", async () => {
      const { status, body } = await get("/api/v2/system/directory");
      expect(status).toBe(200);
      expect(body.links).toEqual({ self: "/v2/system/directory" });
      const data = body.data;
      expect(data.id).toBe(getAddress(contracts[orgA].directory));

      const [keysOnChain, values] = await publicClient.readContract({
        address: data.id,
        abi: DirectoryAbi,
        functionName: "entries",
      });
      const onChain = new Map(keysOnChain.map((key, i) => [directoryKeyName(key), values[i]]));
      const flat = { ...data, ...data.identityImplementations, ...data.systemImplementations };
      for (const [name, value] of onChain) {
        if (
          ["tokenFactoryRegistry", "complianceModuleRegistry", "addonRegistry", "externalTokenRegistry"].includes(
            name as string,
          )
        ) {
          expect(value).toBe(getAddress(contracts[orgA][name as string]));
          continue;
        }
        expect([name, flat[name as string]]).toEqual([name, value === zeroAddress ? null : value]);
      }
      expect(Object.keys(data.systemImplementations)).toHaveLength(12);
      expect(Object.keys(data.identityImplementations)).toEqual([
        "identityImplementation",
        "contractIdentityImplementation",
      ]);
      expect(data.systemFactory).toBe(getAddress(stack.platform.manifest.systemFactory));
      expect(data.identityFactory).toBe(getAddress(contracts[orgA].identityFactory));
      expect(data.systemImplementations.identityVerificationComplianceModule).toMatch(/^0x[0-9a-fA-F]{40}$/);
      for (const name of Object.keys(data.systemImplementations)) impl[name] = data.systemImplementations[name];

      expect(data.tokenTypes).toEqual([
        {
          id: typeIdOf("token"),
          typeId: typeIdOf("token"),
          name: "token",
          implementation: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
          factoryImplementation: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
          registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          isExperimental: false,
        },
      ]);

      const registry = getAddress(contracts[orgA].complianceModuleRegistry);
      const typeIds = await publicClient.readContract({
        address: registry,
        abi: ComplianceModuleRegistryAbi,
        functionName: "typeIds",
      });
      const modules = await Promise.all(
        typeIds.map(async (typeId) => {
          const type = await publicClient.readContract({
            address: registry,
            abi: ComplianceModuleRegistryAbi,
            functionName: "complianceModuleType",
            args: [typeId],
          });
          return {
            id: typeId,
            typeId,
            name: type.name,
            implementation: type.implementation,
            isExperimental: type.isExperimental,
          };
        }),
      );
      expect(modules.length).toBeGreaterThan(3);
      const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
      const listed = data.complianceModuleTypes.map(({ registeredAt: _, ...rest }: { registeredAt: string }) => rest);
      expect(listed.sort(byName)).toEqual(modules.sort(byName));
      expect(data.complianceModuleTypes.map((t: { name: string }) => t.name)).toContain("identity-verification-v2");
      expect(data.addonTypes.map((t: { name: string; kind: string }) => [t.name, t.kind])).toEqual(
        BUILT_IN.map((name) => [name, "factory"]),
      );
    });

    it("reads another organisation's own directory, never A's, and answers null for A's directory asked by B", async () => {
      // B's system is ready once its creation is mined; the index follows a moment later.
      const b = await until("/api/v2/system/directory", (body) => body.data !== null, keys.memberB);
      expect(b.data.id).toBe(getAddress(contracts[orgB].directory));
      expect(b.data.id).not.toBe(getAddress(contracts[orgA].directory));
      expect(b.data.tokenTypes.map((t: { name: string }) => t.name)).toEqual(["token"]);

      const explicit = await get(`/api/v2/system/directory?contract=${contracts[orgA].directory}`);
      expect(explicit.body.data.id).toBe(getAddress(contracts[orgA].directory));
      const foreign = await get(`/api/v2/system/directory?contract=${contracts[orgB].directory}`);
      expect(foreign.status).toBe(200);
      expect(foreign.body).toEqual({
        data: null,
        links: { self: "/v2/system/directory" },
      });
    });

    it("answers data null for an address that is no directory, 400 for a malformed one", async () => {
      for (const contract of [UNREGISTERED, contracts[orgA].addonRegistry]) {
        const { status, body } = await get(`/api/v2/system/directory?contract=${contract}`);
        expect([status, body.data]).toEqual([200, null]);
      }
      const bad = await get("/api/v2/system/directory?contract=0x123");
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        code: "BAD_REQUEST",
        status: 400,
        data: { id: "SVC-0001", category: "client" },
      });
      expect(bad.body.message).toContain("contract");
    });

    it("needs a credential; any member of the organisation may read", async () => {
      expect((await get("/api/v2/system/directory", "")).status).toBe(401);
      expect((await get("/api/v2/system/directory", keys.auditorA)).status).toBe(200);
    });
  });

  describe("addons created on chain", () => {
    beforeAll(async () => {
      // Any contract with code serves as an implementation: the registry clones it and calls nothing (no initData).
      impl.singleton = impl.addonRegistryImplementation;
      impl.factory = impl.topicSchemeRegistryImplementation;
      impl.instance = impl.trustedIssuersRegistryImplementation;
      await addonWrite(orgA, "registerAddonType", ["custom-settlement", FACTORY, impl.factory, impl.instance, false]);
      await addonWrite(orgA, "registerAddonType", ["custom-yield", SINGLETON, impl.singleton, zeroAddress, false]);
      await addonWrite(orgA, "registerAddonType", ["doomed", SINGLETON, impl.singleton, zeroAddress, true]);
      addon.xvp = await createAddon(orgA, "custom-settlement", "Custom Settlement");
      addon.yield = await createAddon(orgA, "custom-yield", "Custom Yield");
      addon.doomed = await createAddon(orgA, "doomed", "Doomed Addon");
      await addonWrite(orgA, "removeAddon", [addon.doomed.address]);
      await addonWrite(orgA, "removeAddonType", [typeIdOf("doomed")]);
      await addonWrite(orgA, "updateAddonType", [typeIdOf("custom-settlement"), impl.factory, impl.instance, true]);
      await addonWrite(orgB, "registerAddonType", ["custom-settlement", FACTORY, impl.factory, impl.instance, false]);
      addon.b = await createAddon(orgB, "custom-settlement", "B Settlement");
      await until("/api/v2/system/addon-factories", (body) => body.meta?.total === BUILT_IN.length + 1, keys.memberB);
      await until("/api/v2/system/directory", (body) =>
        (body.data as { addonTypes: { isExperimental: boolean }[] }).addonTypes.some((t) => t.isExperimental),
      );
    }, 120_000);

    it("lists the organisation's addon factories by name with the spec's fields and facets", async () => {
      const { status, body } = await get("/api/v2/system/addon-factories");
      expect(status).toBe(200);
      expect(body.data.map((row: { name: string }) => row.name)).toEqual(
        byName("Custom Settlement", "Custom Yield", ...BUILT_IN),
      );
      expect(body.data.filter((row: { name: string }) => !isBuiltIn(row))).toEqual([
        {
          id: addon.xvp.address,
          name: "Custom Settlement",
          typeId: "custom-settlement",
          deployedInTransaction: addon.xvp.tx,
          account: addon.xvp.address,
          kind: "factory",
          systemAddonImplementation: null,
          factoryImplementation: impl.factory,
          instanceImplementation: impl.instance,
        },
        {
          id: addon.yield.address,
          name: "Custom Yield",
          typeId: "custom-yield",
          deployedInTransaction: addon.yield.tx,
          account: addon.yield.address,
          kind: "singleton",
          systemAddonImplementation: impl.singleton,
          factoryImplementation: impl.singleton,
          instanceImplementation: null,
        },
      ]);
      for (const builtIn of body.data.filter(isBuiltIn)) {
        expect(builtIn).toMatchObject({ typeId: builtIn.name, kind: "factory", systemAddonImplementation: null });
      }
      expect(body.meta).toEqual({
        total: BUILT_IN.length + 2,
        facets: {
          typeId: byName("custom-settlement", "custom-yield", ...BUILT_IN).map((value) => ({ value, count: 1 })),
          kind: [
            { value: "factory", count: BUILT_IN.length + 1 },
            { value: "singleton", count: 1 },
          ],
        },
      });
      expect(body.links).toMatchObject({ prev: null, next: null });
    });

    it("filters on each field, searches id and name, and sorts by id, name and typeId", async () => {
      const names = async (query: string) =>
        (await get(`/api/v2/system/addon-factories?${query}`)).body.data.map((row: { name: string }) => row.name);
      const custom = async (query: string) => (await names(query)).filter((name: string) => !BUILT_IN.includes(name));
      expect(await names(`filter[id]=${addon.xvp.address.toLowerCase()}`)).toEqual(["Custom Settlement"]);
      expect(await names(`filter[account]=${addon.yield.address}`)).toEqual(["Custom Yield"]);
      expect(await names("filter[name]=Custom%20Yield")).toEqual(["Custom Yield"]);
      expect(await names("filter[name][iLike]=settle")).toEqual(
        byName("Custom Settlement", ...BUILT_IN.filter((name) => name.includes("settle"))),
      );
      expect(await names("filter[typeId]=custom-settlement")).toEqual(["Custom Settlement"]);
      expect(await names("filter[kind]=singleton")).toEqual(["Custom Yield"]);
      expect(await names("filter[kind][inArray]=factory,unknown")).toEqual(byName("Custom Settlement", ...BUILT_IN));
      expect(await names("filter[q]=custom%20settle")).toEqual(["Custom Settlement"]);
      expect(await names(`filter[q]=${addon.yield.address.slice(2, 12).toLowerCase()}`)).toEqual(["Custom Yield"]);
      expect(await names("filter[typeId]=doomed")).toEqual([]);
      expect(await names("sort=-name")).toEqual(byName("Custom Settlement", "Custom Yield", ...BUILT_IN).reverse());
      expect(await custom("sort=-typeId")).toEqual(["Custom Yield", "Custom Settlement"]);
      const byId = [addon.xvp, addon.yield].sort((a, b) =>
        a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1,
      );
      expect(await custom("sort=id")).toEqual(
        byId.map((a) => (a === addon.xvp ? "Custom Settlement" : "Custom Yield")),
      );

      const refused = await get("/api/v2/system/addon-factories?filter[kind]=bogus");
      expect([refused.status, refused.body.code]).toEqual([400, "BAD_REQUEST"]);
      const unsortable = await get("/api/v2/system/addon-factories?sort=kind");
      expect([unsortable.status, unsortable.body.code]).toEqual([400, "COLLECTION_SORT_FIELD_UNKNOWN"]);
      const unknown = await get("/api/v2/system/addon-factories?filter[version]=1");
      expect([unknown.status, unknown.body.code]).toEqual([400, "COLLECTION_FILTER_FIELD_UNKNOWN"]);
    });

    it("pages with links", async () => {
      const first = (await get("/api/v2/system/addon-factories?page[limit]=1")).body;
      expect(first.data.map((row: { name: string }) => row.name)).toEqual(["Custom Settlement"]);
      expect(first.meta.total).toBe(BUILT_IN.length + 2);
      const page = (link: string | null) => {
        if (link === null) return null;
        const params = new URL(link, "http://x").searchParams;
        return [params.get("page[offset]"), params.get("page[limit]")];
      };
      expect(
        Object.fromEntries(Object.entries(first.links).map(([name, link]) => [name, page(link as string)])),
      ).toEqual({
        self: ["0", "1"],
        first: ["0", "1"],
        prev: null,
        next: ["1", "1"],
        last: [String(BUILT_IN.length + 1), "1"],
      });
      expect(first.links.self).toMatch(/^\/v2\/system\/addon-factories\?/);
      const second = (await get(first.links.next.replace(/^\/v2/, "/api/v2"))).body;
      expect(second.data.map((row: { name: string }) => row.name)).toEqual(["Custom Yield"]);
      expect(page(second.links.next)).toEqual(["2", "1"]);
      expect(second.links.prev).toContain("page%5Boffset%5D=0");
    });

    it("reads one addon factory; unregistered, removed and other organisations' addresses are 404 SVC-0227", async () => {
      const one = await get(`/api/v2/system/addon-factories/${addon.xvp.address.toLowerCase()}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({
        data: {
          id: addon.xvp.address,
          name: "Custom Settlement",
          typeId: "custom-settlement",
          version: 1,
          type: "custom-settlement",
        },
        links: { self: `/v2/system/addon-factories/${addon.xvp.address.toLowerCase()}` },
      });
      for (const address of [UNREGISTERED, addon.doomed.address, addon.b.address]) {
        const missing = await get(`/api/v2/system/addon-factories/${address}`);
        expect(missing.status).toBe(404);
        expect(missing.body).toMatchObject({
          code: "ADDON_FACTORY_NOT_FOUND",
          status: 404,
          data: { id: "SVC-0227", category: "client", factoryAddress: address },
        });
      }
      const bad = await get("/api/v2/system/addon-factories/0xnot-an-address");
      expect([bad.status, bad.body.code, bad.body.data.id]).toEqual([400, "BAD_REQUEST", "SVC-0001"]);
    });

    it("keeps organisations apart: B sees only its addon, A never B's", async () => {
      const b = (await get("/api/v2/system/addon-factories", keys.memberB)).body;
      expect(b.data.filter((row: { name: string }) => !isBuiltIn(row))).toEqual([
        expect.objectContaining({ id: addon.b.address, name: "B Settlement", kind: "factory" }),
      ]);
      const own = await get(`/api/v2/system/addon-factories/${addon.b.address}`, keys.memberB);
      expect(own.body.data).toMatchObject({ id: addon.b.address, version: 1 });
      const fromA = (await get(`/api/v2/system/addon-factories?filter[id]=${addon.b.address}`)).body;
      expect(fromA.meta.total).toBe(0);
      expect((await get("/api/v2/system/addon-factories?filter[q]=B%20Settlement")).body.data).toEqual([]);
      const none = (await get(`/api/v2/system/addon-factories/${addon.xvp.address}`, keys.memberB)).body;
      expect(none.data.id).toBe("SVC-0227");
    });

    it("shows the addon types in each directory: registered and updated ones, removed ones gone", async () => {
      const a = (await get("/api/v2/system/directory")).body.data;
      expect(a.addonTypes.filter((t: { name: string }) => !isBuiltIn(t))).toEqual([
        {
          id: typeIdOf("custom-settlement"),
          typeId: typeIdOf("custom-settlement"),
          name: "custom-settlement",
          kind: "factory",
          factoryImplementation: impl.factory,
          instanceImplementation: impl.instance,
          registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          isExperimental: true,
        },
        {
          id: typeIdOf("custom-yield"),
          typeId: typeIdOf("custom-yield"),
          name: "custom-yield",
          kind: "singleton",
          factoryImplementation: impl.singleton,
          instanceImplementation: null,
          registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          isExperimental: false,
        },
      ]);
      const b = (await get("/api/v2/system/directory", keys.memberB)).body.data;
      expect(b.addonTypes.map((t: { name: string; isExperimental: boolean }) => [t.name, t.isExperimental])).toEqual(
        byName("custom-settlement", ...BUILT_IN).map((name) => [name, false]),
      );
    });
  });
});
