// Organisation token templates over HTTP: created beside the library, applied at token creation with their
// defaults and compliance template, checked for consistency, deleted; library templates stay immutable.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationStack } from "./support/shared-stack.ts";
import { json, type TestStack } from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("organisation token templates", () => {
  let stack: TestStack;
  let templateId: string;

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await stack.api(path, { method: "POST", headers, body: JSON.stringify(body) });
    return { status: res.status, body: await json(res) };
  };

  beforeAll(async () => {
    stack = await organizationStack("Token templates");
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("creates a template and lists it after the library ones", async () => {
    const created = await post("/api/v2/token-templates", {
      name: "Fee-bearing deposit",
      description: "A deposit taking a transfer fee",
      requiredFeatures: ["transaction-fee"],
      allowedFeatures: ["transaction-fee", "permit"],
      defaults: {
        decimals: 2,
        featureConfigs: { "transaction-fee": { mintFeeBps: 0, burnFeeBps: 0, transferFeeBps: 25 } },
      },
      complianceTemplateId: "sanctioned-countries-blocked",
    });
    expect(created.status).toBe(201);
    templateId = created.body.data.id;
    expect(created.body.data).toMatchObject({ isSystem: false, requiredFeatures: ["transaction-fee"] });
    expect(created.body.links.self).toBe(`/v2/token-templates/${templateId}`);

    const list = await json(await stack.api("/api/v2/token-templates"));
    expect(list.data.map((t: { id: string }) => t.id)).toEqual([
      "bond",
      "deposit",
      "equity",
      "fund",
      "stablecoin",
      templateId,
    ]);
    expect(list.meta.total).toBe(6);
    const one = await json(await stack.api(`/api/v2/token-templates/${templateId}`));
    expect(one.data.defaults.featureConfigs["transaction-fee"].transferFeeBps).toBe(25);
  });

  it("creates a token from it: the defaults fill what the request leaves out, its compliance template applies", async () => {
    const missing = await post("/api/v2/tokens", { templateId, name: "Fee Deposit", symbol: "FDEP" });
    expect(missing.status).toBe(400);
    expect(missing.body.data.issues.map((i: { path: string }) => i.path)).toEqual([
      "featureConfigs.transaction-fee.recipient",
    ]);

    const done = await post(
      "/api/v2/tokens",
      {
        templateId,
        name: "Fee Deposit",
        symbol: "FDEP",
        featureConfigs: { "transaction-fee": { recipient: ALICE } },
      },
      { prefer: "wait=60" },
    );
    expect(done.status).toBe(200);
    const token = await json(await stack.api(`/api/v2/token/${done.body.data.tokenAddress}`));
    expect(token.data).toMatchObject({ type: templateId, decimals: 2 });
    expect(token.data.features).toEqual([
      expect.objectContaining({
        id: "transaction-fee",
        config: { mintFeeBps: 0, burnFeeBps: 0, transferFeeBps: 25, recipient: ALICE },
      }),
    ]);
    expect(token.data.compliance.modules.map((m: { typeId: string }) => m.typeId)).toEqual(["country-block-list-v2"]);
  });

  it("refuses an inconsistent template, naming the field or the feature", async () => {
    const notAllowed = await post("/api/v2/token-templates", {
      name: "Broken",
      requiredFeatures: ["permit"],
      allowedFeatures: [],
    });
    expect(notAllowed.status).toBe(400);
    expect(notAllowed.body.data.issues[0].path).toBe("requiredFeatures.0");

    const rules = await post("/api/v2/token-templates", {
      name: "Yield without history",
      requiredFeatures: ["fixed-treasury-yield"],
      allowedFeatures: ["fixed-treasury-yield"],
    });
    expect(rules.status).toBe(422);
    expect(rules.body.code).toBe("TOKEN_FEATURE_DEPENDENCY_MISSING");

    const badDefault = await post("/api/v2/token-templates", {
      name: "Bad default",
      requiredFeatures: [],
      allowedFeatures: ["aum-fee"],
      defaults: { featureConfigs: { "aum-fee": { feeBps: 20_000 } } },
    });
    expect(badDefault.status).toBe(400);
    expect(badDefault.body.data.issues[0].path).toBe("defaults.featureConfigs.aum-fee.feeBps");
  });

  it("refuses a draft compliance template at token creation", async () => {
    const draft = await post("/api/v2/settings/compliance-templates", {
      name: "Draft caps",
      description: "",
      jurisdictions: [],
      modules: [{ typeId: "capped-v2", params: { maxSupply: "1000" } }],
      requiredControls: [],
    });
    expect(draft.status).toBe(201);
    const refused = await post("/api/v2/tokens", {
      templateId: "deposit",
      name: "Capped",
      symbol: "CAP",
      complianceTemplateId: draft.body.data.id,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("COMPLIANCE_TEMPLATE_NOT_APPLICABLE");
  });

  it("deletes the organisation's template; library templates cannot be deleted", async () => {
    expect((await stack.api(`/api/v2/token-templates/${templateId}`, { method: "DELETE" })).status).toBe(204);
    expect((await stack.api(`/api/v2/token-templates/${templateId}`)).status).toBe(404);
    const library = await stack.api("/api/v2/token-templates/bond", { method: "DELETE" });
    expect(library.status).toBe(403);
  });
});
