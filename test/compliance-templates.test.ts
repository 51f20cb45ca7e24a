// /api/v2/settings/compliance-templates over HTTP against the real stack: the library, an organisation's drafts and
// published templates, the list's filters (GLOBAL and global templates), sort and facets, update, publish, delete,
// module-set errors at their field paths, permissions, and another organisation that sees none of it.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { type Databases, openDatabases } from "../host/db/database.ts";
import { createApiKey } from "../plugins/access/api-key-store.ts";
import { grantRole } from "../plugins/access/members.ts";
import { createUser } from "../plugins/access/users.ts";
import { LIBRARY_TEMPLATES } from "../plugins/compliance-templates/library-templates.ts";
import { templatesDb } from "../plugins/compliance-templates/tables.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { json, platformDbUrl, type TestStack } from "./support/stack.ts";

const LIST = "/api/v2/settings/compliance-templates";
const KYC = { expression: [{ nodeType: "TOPIC", topic: "KYC" }] };

interface Template {
  id: string;
  name: string;
  description: string;
  jurisdictions: string[];
  isSystem: boolean;
  isDraft: boolean;
  moduleSetVersion: number;
  organizationId: string;
  version: number;
  modules: { typeId: string; params?: Record<string, unknown> }[];
  requiredControls: string[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

interface ListBody {
  data: Template[];
  meta: { total: number; facets: Record<string, { value: unknown; count: number }[]> };
  links: { self: string; first: string; prev: string | null; next: string | null; last: string };
}

/** The library's ids in its listed order (by name). */
const LIBRARY_IDS = [...LIBRARY_TEMPLATES].sort((a, b) => (a.name < b.name ? -1 : 1)).map((t) => t.id);
const byName = (a: Template, b: Template) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);
/** The default order: library first, then by name (the database's C collation compares like JS). */
const libraryFirst = (a: Template, b: Template) => Number(b.isSystem) - Number(a.isSystem) || byName(a, b);

describe("compliance templates", () => {
  let stack: TestStack;
  let operatorDb: Databases;
  let orgId: string;
  let otherKey: string;
  let memberKey: string;

  const send = (method: string, path: string, body?: unknown, key?: string) =>
    stack.api(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }), ...(key ? { key } : {}) });
  async function expectOk(res: Response, status = 200) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(status);
    return body;
  }
  async function expectError(res: Response, status: number, code: string) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(status);
    expect(body).toMatchObject({ code, status });
    return body;
  }
  const create = async (body: Record<string, unknown>, key?: string): Promise<Template> =>
    (await expectOk(await send("POST", LIST, body, key), 201)).data;
  const list = async (query = "", key?: string): Promise<ListBody> =>
    expectOk(await stack.api(`${LIST}${query ? `?${query}` : ""}`, key ? { key } : {}));
  const issuePaths = (body: { data: { issues?: { path: string }[] } }) => body.data.issues?.map((i) => i.path);

  async function keyIn(organizationId: string, role: string) {
    const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
    const master = loadMasterKey(loadConfig(stack.env));
    const { userId } = await createUser(operatorDb.platform, master, { email, displayName: role });
    await grantRole(operatorDb.platform, { organizationId, userId, role });
    return (await createApiKey(operatorDb.platform, { organizationId, userId, name: "test", scope: "read-write" })).key;
  }

  beforeAll(async () => {
    stack = await organizationStack("compliance-templates");
    orgId = stack.platform.credentials.organizationId;
    operatorDb = openDatabases(platformDbUrl(stack.env), "ledger", 2);
    const db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
    await db.connect();
    await db.query(
      "insert into platform.organizations (id, name, default_chain_id) values ('other-org-of-templates', 'Other', 31337)",
    );
    await db.end();
    otherKey = await keyIn("other-org-of-templates", "owner");
    memberKey = await keyIn(orgId, "member");
  });
  afterAll(async () => {
    await operatorDb?.close().catch(() => {});
    await stack?.stop();
  });

  it("lists the library: published, immutable, owned by system, by name", async () => {
    const { data, meta } = await list();
    expect(data.map((t) => t.id)).toEqual(LIBRARY_IDS);
    for (const t of data) {
      expect(t).toMatchObject({
        isSystem: true,
        isDraft: false,
        organizationId: "system",
        createdBy: "system",
        version: 1,
      });
      const source = LIBRARY_TEMPLATES.find((l) => l.id === t.id)!;
      expect(t).toMatchObject({ ...source });
    }
    expect(meta.facets.isSystem).toEqual([{ value: true, count: LIBRARY_TEMPLATES.length }]);
    const one = await expectOk(await stack.api(`${LIST}/kyc-verified-investors`));
    expect(one).toEqual({
      data: data.find((t) => t.id === "kyc-verified-investors"),
      links: { self: `/v2/settings/compliance-templates/kyc-verified-investors` },
    });
  });

  it("creates a draft of the current module set, with Location and links.self at the template", async () => {
    const res = await send("POST", LIST, {
      name: "Belgian investors",
      description: "KYC-verified holders registered in Belgium",
      jurisdictions: ["be"],
      modules: [
        { typeId: "country-allow-list-v2", params: { countries: [56] } },
        { typeId: "identity-verification-v2", params: KYC },
        { typeId: "capped-v2" },
      ],
      requiredControls: ["country-allow-list-v2"],
    });
    const body = await expectOk(res, 201);
    const t: Template = body.data;
    expect(t).toMatchObject({
      name: "Belgian investors",
      jurisdictions: ["BE"],
      isSystem: false,
      isDraft: true,
      moduleSetVersion: 2,
      organizationId: orgId,
      version: 1,
      modules: [
        { typeId: "country-allow-list-v2", params: { countries: [56] } },
        { typeId: "identity-verification-v2", params: KYC },
        { typeId: "capped-v2" },
      ],
      requiredControls: ["country-allow-list-v2"],
    });
    expect(t.createdBy).toMatch(/\S/);
    expect(t.createdAt).toBe(t.updatedAt);
    expect(body.links.self).toBe(`/v2/settings/compliance-templates/${t.id}`);
    expect(res.headers.get("location")).toBe(body.links.self);
    expect(await expectOk(await stack.api(body.links.self))).toEqual(body);
  });

  it("refuses mixed module sets on create at the field path, in the BAD_REQUEST envelope", async () => {
    const mixed = await expectError(
      await send("POST", LIST, {
        name: "Mixed",
        modules: [{ typeId: "country-allow-list", params: { countries: [276] } }],
        requiredControls: ["country-allow-list"],
      }),
      400,
      "BAD_REQUEST",
    );
    expect(mixed.data.id).toBe("SVC-0001");
    expect(issuePaths(mixed)).toEqual(["modules.0.typeId", "requiredControls.0"]);
    expect(mixed.message).toMatch(/modules\.0\.typeId/);

    const legacy = await expectError(
      await send("POST", LIST, {
        name: "Legacy mixed",
        moduleSetVersion: 1,
        modules: [{ typeId: "transfer-approval" }],
        requiredControls: ["capped-v2"],
      }),
      400,
      "BAD_REQUEST",
    );
    expect(issuePaths(legacy)).toEqual(["requiredControls.0"]);

    const params = await expectError(
      await send("POST", LIST, {
        name: "Bad params",
        modules: [
          { typeId: "time-lock-v2", params: { lockDuration: 60 } },
          { typeId: "capped-v2", params: { maxSupply: "0" } },
        ],
      }),
      400,
      "BAD_REQUEST",
    );
    expect(issuePaths(params)).toEqual(["modules.1.params.maxSupply"]);
    expect(
      issuePaths(
        await expectError(await send("POST", LIST, { name: "G", jurisdictions: ["GLOBAL"] }), 400, "BAD_REQUEST"),
      ),
    ).toEqual(["jurisdictions.0"]);
  });

  describe("the list", () => {
    let all: Template[];

    beforeAll(async () => {
      const published = await create({
        name: "Global cap",
        modules: [{ typeId: "capped-v2", params: { maxSupply: "1000" } }],
      });
      await expectOk(await send("PUT", `${LIST}/${published.id}/publish`));
      await create({
        name: "Legacy EU approvals",
        description: "Version one module set for older tokens",
        moduleSetVersion: 1,
        jurisdictions: ["EU", "de"],
        modules: [{ typeId: "transfer-approval" }],
      });
      await create({ name: "apex lowercase", isLegacy: false, jurisdictions: ["FR"] });
      all = (await list("page[limit]=200")).data;
    });

    const ids = (templates: Template[]) => templates.map((t) => t.id);
    const expectList = async (query: string, predicate: (t: Template) => boolean, order = libraryFirst) => {
      const { data, meta } = await list(`${query}&page[limit]=200`);
      expect(ids(data), query).toEqual(ids(all.filter(predicate).sort(order)));
      expect(meta.total).toBe(data.length);
      return data;
    };
    const covers = (t: Template, code: string) => t.jurisdictions.length === 0 || t.jurisdictions.includes(code);

    it("puts the library first, then the organisation's templates by name", async () => {
      expect(ids(all)).toEqual(ids([...all].sort(libraryFirst)));
      expect(all.filter((t) => !t.isSystem).map((t) => t.name)).toEqual([
        "Belgian investors",
        "Global cap",
        "Legacy EU approvals",
        "apex lowercase",
      ]);
      const reversed = (a: Template, b: Template) => Number(b.isSystem) - Number(a.isSystem) || byName(b, a);
      await expectList("sort=-name", () => true, reversed);
      await expectList(
        "sort=isSystem",
        () => true,
        (a, b) => Number(a.isSystem) - Number(b.isSystem) || (a.id < b.id ? -1 : 1),
      );
      await expectList(
        "sort=-createdAt",
        () => true,
        (a, b) =>
          Number(b.isSystem) - Number(a.isSystem) ||
          (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1),
      );
    });

    it("filters by jurisdiction with the global templates; GLOBAL selects the global ones only", async () => {
      const be = await expectList("filter[jurisdiction]=be", (t) => covers(t, "BE"));
      expect(be.map((t) => t.name)).toEqual([
        "KYC verified investors",
        "Sanctioned countries blocked",
        "Belgian investors",
        "Global cap",
      ]);
      await expectList("filter[jurisdiction]=EU", (t) => covers(t, "EU"));
      await expectList("filter[jurisdiction][inArray]=FR,DE", (t) => covers(t, "FR") || covers(t, "DE"));
      const global = await expectList("filter[jurisdiction]=GLOBAL", (t) => t.jurisdictions.length === 0);
      expect(global.length).toBe(3);
      await expectList("filter[jurisdiction][isNotEmpty]", (t) => t.jurisdictions.length > 0);
    });

    it("filters by isDraft (false: published and library), moduleSetVersion, isSystem, name, dates and search", async () => {
      const published = await expectList("filter[isDraft]=false", (t) => !t.isDraft);
      expect(published.filter((t) => !t.isSystem).map((t) => t.name)).toEqual(["Global cap"]);
      await expectList("filter[isDraft]=true", (t) => t.isDraft);
      await expectList("filter[moduleSetVersion]=1", (t) => t.moduleSetVersion === 1);
      await expectList("filter[isSystem]=false", (t) => !t.isSystem);
      await expectList("filter[name][iLike]=INVEST", (t) => t.name.toLowerCase().includes("invest"));
      await expectList("filter[name]=Global cap", (t) => t.name === "Global cap");
      await expectList("filter[q]=older tokens", (t) => t.description.includes("older tokens"));
      await expectList("filter[q]=germany", (t) => `${t.name} ${t.description}`.toLowerCase().includes("germany"));
      const newest = all.find((t) => t.name === "apex lowercase")!;
      await expectList(
        `filter[createdAt][gte]=${encodeURIComponent(newest.createdAt)}`,
        (t) => t.createdAt >= newest.createdAt,
      );
      await expectList(
        `filter[updatedAt][lt]=${encodeURIComponent(newest.updatedAt)}`,
        (t) => t.updatedAt < newest.updatedAt,
      );
      await expectList("filter[isDraft]=false&filter[jurisdiction]=EU", (t) => !t.isDraft && covers(t, "EU"));
    });

    it("counts facets isSystem, isDraft and moduleSetVersion over the filtered set; pages with links", async () => {
      const facet = (values: unknown[]) =>
        [...new Set(values)]
          .map((value) => ({ value, count: values.filter((v) => v === value).length }))
          .sort((a, b) => b.count - a.count || (String(a.value) < String(b.value) ? -1 : 1));
      const { meta } = await list("");
      expect(meta.facets).toEqual({
        isDraft: facet(all.map((t) => t.isDraft)),
        moduleSetVersion: facet(all.map((t) => t.moduleSetVersion)),
        isSystem: facet(all.map((t) => t.isSystem)),
      });
      const drafts = all.filter((t) => t.isDraft);
      expect((await list("filter[isDraft]=true")).meta.facets.isSystem).toEqual([
        { value: false, count: drafts.length },
      ]);

      const first = await list("page[limit]=2");
      expect(ids(first.data)).toEqual(ids(all.slice(0, 2)));
      expect(first.links.prev).toBeNull();
      const second = await expectOk(await stack.api(first.links.next!));
      expect(ids(second.data)).toEqual(ids(all.slice(2, 4)));
    });

    it("refuses unknown filters, operators and sorts with the collection codes", async () => {
      await expectError(await stack.api(`${LIST}?filter[modules]=x`), 400, "COLLECTION_FILTER_FIELD_UNKNOWN");
      await expectError(
        await stack.api(`${LIST}?filter[jurisdiction][iLike]=D`),
        400,
        "COLLECTION_FILTER_OPERATOR_UNKNOWN",
      );
      await expectError(await stack.api(`${LIST}?sort=description`), 400, "COLLECTION_SORT_FIELD_UNKNOWN");
      await expectError(await stack.api(`${LIST}?filter[moduleSetVersion]=two`), 400, "BAD_REQUEST");
    });
  });

  it("updates a draft (a new version), publishes it once (a repeat is 409 and makes no version), updates it back to a draft", async () => {
    const t = await create({ name: "Lifecycle", modules: [{ typeId: "capped-v2", params: { maxSupply: "5" } }] });
    const path = `${LIST}/${t.id}`;
    const updated: Template = (
      await expectOk(
        await send("PUT", path, {
          name: "Lifecycle v2",
          jurisdictions: ["nl"],
          modules: [{ typeId: "time-lock-v2", params: { lockDuration: 3600 } }],
          requiredControls: ["time-lock-v2"],
        }),
      )
    ).data;
    expect(updated).toMatchObject({
      id: t.id,
      name: "Lifecycle v2",
      description: "",
      jurisdictions: ["NL"],
      modules: [{ typeId: "time-lock-v2", params: { lockDuration: 3600 } }],
      isDraft: true,
      version: 2,
      moduleSetVersion: 2,
      createdAt: t.createdAt,
    });
    expect(updated.updatedAt > t.updatedAt).toBe(true);

    const published = await expectOk(await send("PUT", `${path}/publish`));
    expect(published).toEqual({
      data: { ...updated, isDraft: false, version: 3, updatedAt: published.data.updatedAt },
      links: { self: `/v2/settings/compliance-templates/${t.id}` },
    });
    const again = await expectError(await send("PUT", `${path}/publish`), 409, "COMPLIANCE_TEMPLATE_ALREADY_PUBLISHED");
    expect(again.data.id).toBe("SVC-0322");
    expect((await expectOk(await stack.api(path))).data).toEqual(published.data);

    const redraft: Template = (await expectOk(await send("PUT", path, { name: "Lifecycle v3" }))).data;
    expect(redraft).toMatchObject({ isDraft: true, version: 4, modules: [], requiredControls: [] });
    expect((await expectOk(await send("PUT", `${path}/publish`))).data).toMatchObject({ isDraft: false, version: 5 });
  });

  it("keeps moduleSetVersion: another version is a BAD_REQUEST, another set's controls a compatibility error on update and publish", async () => {
    const legacy = await create({
      name: "Legacy",
      moduleSetVersion: 1,
      modules: [{ typeId: "investor-count", params: { maxInvestors: 9 } }],
    });
    const path = `${LIST}/${legacy.id}`;
    const changed = await expectError(
      await send("PUT", path, { name: "Legacy", moduleSetVersion: 2 }),
      400,
      "BAD_REQUEST",
    );
    expect(issuePaths(changed)).toEqual(["moduleSetVersion"]);
    expect((await expectOk(await send("PUT", path, { name: "Legacy", moduleSetVersion: 1 }))).data.version).toBe(2);

    const incompatible = await expectError(
      await send("PUT", path, {
        name: "Legacy",
        modules: [
          { typeId: "investor-count-v2", params: { maxInvestors: 9 } },
          { typeId: "transfer-approval" },
          { typeId: "capped-v2" },
        ],
        requiredControls: ["capped-v2"],
      }),
      422,
      "COMPLIANCE_MODULE_SET_INCOMPATIBLE",
    );
    expect(incompatible.data).toMatchObject({
      id: "SVC-0323",
      moduleSetVersion: 1,
      incompatibleTypeIds: ["investor-count-v2", "capped-v2"],
    });
    const badParams = await expectError(
      await send("PUT", path, {
        name: "Legacy",
        modules: [{ typeId: "investor-count", params: { countries: [276] } }],
      }),
      400,
      "BAD_REQUEST",
    );
    expect(issuePaths(badParams)).toEqual(["modules.0.params.countryLimits"]);
    expect((await expectOk(await stack.api(path))).data.version).toBe(2);

    // A stored draft holding another set's control (written outside the API) cannot be published either.
    await templatesDb(operatorDb.platform)
      .updateTable("complianceTemplates")
      .set({ modules: JSON.stringify([{ typeId: "time-lock-v2", params: { lockDuration: 60 } }]) })
      .where("id", "=", legacy.id)
      .execute();
    const publish = await expectError(await send("PUT", `${path}/publish`), 422, "COMPLIANCE_MODULE_SET_INCOMPATIBLE");
    expect(publish.data.incompatibleTypeIds).toEqual(["time-lock-v2"]);
    expect((await expectOk(await stack.api(path))).data).toMatchObject({ isDraft: true, version: 2 });
  });

  it("keeps library templates immutable: update, publish and delete are 409, not 500", async () => {
    const path = `${LIST}/kyc-verified-investors`;
    const before = (await expectOk(await stack.api(path))).data;
    const update = await expectError(
      await send("PUT", path, { name: "Mine now" }),
      409,
      "COMPLIANCE_TEMPLATE_IMMUTABLE",
    );
    expect(update.data.id).toBe("SVC-0321");
    await expectError(await send("PUT", `${path}/publish`), 409, "COMPLIANCE_TEMPLATE_IMMUTABLE");
    await expectError(await send("DELETE", path), 409, "COMPLIANCE_TEMPLATE_IMMUTABLE");
    expect((await expectOk(await stack.api(path))).data).toEqual(before);
  });

  it("deletes an organisation template; then it is not found", async () => {
    const t = await create({ name: "Short-lived" });
    const path = `${LIST}/${t.id}`;
    expect(await expectOk(await send("DELETE", path))).toEqual({
      data: { id: t.id, success: true },
      links: { self: `/v2/settings/compliance-templates/${t.id}` },
    });
    const gone = await expectError(await stack.api(path), 404, "COMPLIANCE_TEMPLATE_NOT_FOUND");
    expect(gone.data.id).toBe("SVC-0320");
    await expectError(await send("DELETE", path), 404, "COMPLIANCE_TEMPLATE_NOT_FOUND");
    await expectError(await send("PUT", `${path}/publish`), 404, "COMPLIANCE_TEMPLATE_NOT_FOUND");
  });

  it("scopes templates to the organisation: another one sees the library and its own only", async () => {
    const ours = await create({ name: "Ours only" });
    const theirs = await create({ name: "Theirs only", jurisdictions: ["US"] }, otherKey);
    expect(theirs.organizationId).toBe("other-org-of-templates");

    const theirList = (await list("page[limit]=200", otherKey)).data;
    expect(theirList.map((t) => t.id)).toEqual([...LIBRARY_IDS, theirs.id]);
    expect((await list("filter[jurisdiction]=US&page[limit]=200")).data.map((t) => t.id)).not.toContain(theirs.id);

    const path = `${LIST}/${ours.id}`;
    await expectError(await stack.api(path, { key: otherKey }), 404, "COMPLIANCE_TEMPLATE_NOT_FOUND");
    await expectError(await send("PUT", path, { name: "Taken" }, otherKey), 404, "COMPLIANCE_TEMPLATE_NOT_FOUND");
    await expectError(await send("PUT", `${path}/publish`, undefined, otherKey), 404, "COMPLIANCE_TEMPLATE_NOT_FOUND");
    await expectError(await send("DELETE", path, undefined, otherKey), 404, "COMPLIANCE_TEMPLATE_NOT_FOUND");
    expect((await expectOk(await stack.api(path))).data).toEqual(ours);
  });

  it("lets every member read and only owners, admins and system managers change templates", async () => {
    expect((await list("", memberKey)).meta.total).toBeGreaterThan(0);
    const denied = await expectError(
      await send("POST", LIST, { name: "Member's" }, memberKey),
      403,
      "USER_NOT_AUTHORIZED",
    );
    expect(denied.data.requiredRoles).toEqual(["owner", "admin", "systemManager"]);
    await expectError(
      await send("PUT", `${LIST}/kyc-verified-investors/publish`, undefined, memberKey),
      403,
      "USER_NOT_AUTHORIZED",
    );
  });
});
