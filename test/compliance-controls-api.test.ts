// Every compliance control at work over HTTP against the real stack: for each of the twelve v2 control types (and a
// legacy v1 template) a compliance template is created and published, a token is created under it (the token
// supplying the params the template leaves open), then a mint or transfer the control allows completes, one it
// refuses is answered 422 naming the module's typeId and reason (and the pre-check says the same), and the module's
// parameters read back from GET /api/v2/token/{address}. One stack for the file; identities registered once.
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CollateralModuleAbi } from "../abis/CollateralModule.ts";
import { TransferApprovalModuleAbi } from "../abis/TransferApprovalModule.ts";
import { decodeControlParams, topicIdHex } from "../domain/compliance/control-decode.ts";
import {
  ALICE,
  type Answer,
  type ApiFlows,
  apiFlows,
  BOB,
  CAROL,
  COUNTRY,
  DAVE,
  DAY,
  EVE,
  expectComplianceRefusal,
  same,
} from "./support/api-flows.ts";
import { organizationStack } from "./support/shared-stack.ts";
import type { TestStack } from "./support/stack.ts";

interface ModuleView {
  typeId: string;
  module: `0x${string}`;
  params: Record<string, unknown>;
}

describe("compliance controls at work, over HTTP", () => {
  let stack: TestStack;
  let api: ApiFlows;
  let signer: `0x${string}`;
  /** Identity contracts of the registered wallets (DAVE stays unregistered). */
  const identity: Record<string, `0x${string}`> = {};
  let symbols = 0;

  const lower = (a: string) => a.toLowerCase();
  const completed = (answer: Answer) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.status).toBe("COMPLETED");
  };

  /**
   * The token's compliance modules as GET /api/v2/token/{address} shows them, params as JSON: decoded with
   * decodeControlParams while the read model serves the module's bytes, taken as they are once it serves JSON.
   */
  async function modulesOf(token: string): Promise<ModuleView[]> {
    const { compliance } = await api.token(token);
    return compliance.modules.map((m: { typeId: string; module: `0x${string}`; params: unknown }) => ({
      typeId: m.typeId,
      module: m.module,
      params: typeof m.params === "string" ? decodeControlParams(m.typeId, m.params as Hex) : m.params,
    }));
  }

  /** Publishes a template with the given controls and creates a token (decimals 0) under it. */
  async function tokenUnder(
    name: string,
    template: { modules: unknown[]; requiredControls?: string[]; moduleSetVersion?: number },
    complianceConfigs?: Record<string, unknown>,
  ) {
    const complianceTemplateId = await api.publishComplianceTemplate({
      name,
      description: `${name}, for the compliance controls flow`,
      jurisdictions: [],
      requiredControls: template.modules.map((m) => (m as { typeId: string }).typeId),
      ...template,
    });
    symbols += 1;
    const token = await api.createToken({
      templateId: "deposit",
      name,
      symbol: `CC${symbols}`,
      decimals: 0,
      complianceTemplateId,
      ...(complianceConfigs ? { complianceConfigs } : {}),
    });
    return { token, complianceTemplateId };
  }

  /** A compliance refusal that names the token's own module of that type (write and pre-check alike). */
  async function refused(token: string, answer: Answer, typeId: string, reason: string) {
    expectComplianceRefusal(answer, typeId, reason);
    const module = (await modulesOf(token)).find((m) => m.typeId === typeId)?.module;
    expect(module && same(answer.body.data.module, module)).toBe(true);
  }
  async function precheckRefuses(
    token: string,
    query: Record<string, string | number>,
    typeId: string,
    reason: string,
  ) {
    expect(await api.precheck(token, query)).toMatchObject({
      allowed: false,
      refusal: { code: "COMPLIANCE_CHECK_FAILED", typeId, reason },
    });
  }
  async function precheckAllows(token: string, query: Record<string, string | number>) {
    expect(await api.precheck(token, query)).toMatchObject({ allowed: true, refusal: null });
  }

  beforeAll(async () => {
    stack = await organizationStack("compliance-controls-api", "clock-moving");
    api = apiFlows(stack);
    identity[lower(ALICE)] = await api.registerIdentity(ALICE, COUNTRY.BELGIUM);
    signer = await api.signer();
    const others = [
      [signer, COUNTRY.BELGIUM],
      [BOB, COUNTRY.UNITED_STATES],
      [CAROL, COUNTRY.GERMANY],
      [EVE, COUNTRY.GERMANY],
    ] as const;
    const registered = await Promise.all(others.map(([wallet, country]) => api.registerIdentity(wallet, country)));
    others.forEach(([wallet], i) => {
      identity[lower(wallet)] = registered[i];
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("address-block-list-v2: blocked wallets can neither receive a mint nor a transfer", async () => {
    const typeId = "address-block-list-v2";
    const { token } = await tokenUnder("Blocked addresses", { modules: [{ typeId, params: { blocked: [BOB] } }] });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params: { blocked: [BOB] } }]);

    completed(await api.mint(token, [signer], [100]));
    completed(await api.transfer(token, [ALICE], [10]));
    await refused(token, await api.mint(token, [BOB], [1]), typeId, "recipient address blocked");
    await refused(token, await api.transfer(token, [BOB], [1]), typeId, "recipient address blocked");
    await precheckRefuses(token, { action: "transfer", to: BOB, amount: 1 }, typeId, "recipient address blocked");
    expect(await api.balances(token)).toEqual({ [lower(signer)]: "90", [lower(ALICE)]: "10" });
  });

  it("capital-raise-limit: the token's own limits (complianceConfigs) cap what is minted per period and in total", async () => {
    const typeId = "capital-raise-limit";
    const limits = { maxTotal: "1000", periodLimit: "700", periodLength: DAY };
    const { token } = await tokenUnder("Capital raise", { modules: [{ typeId }] }, { [typeId]: limits });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params: limits }]);

    completed(await api.mint(token, [signer], [600]));
    await refused(token, await api.mint(token, [signer], [200]), typeId, "period raise limit 700 exceeded");
    await precheckAllows(token, { action: "mint", to: ALICE, amount: 100 });
    completed(await api.transfer(token, [ALICE], [50])); // transfers are not limited

    await api.advanceTime(DAY); // the next period
    completed(await api.mint(token, [ALICE], [200]));
    await refused(token, await api.mint(token, [signer], [300]), typeId, "total raise limit 1000 exceeded");
    completed(await api.burn(token, [signer], [500])); // burns give no capacity back
    await precheckRefuses(
      token,
      { action: "mint", to: signer, amount: 300 },
      typeId,
      "total raise limit 1000 exceeded",
    );
    expect((await api.token(token)).totalSupply).toBe("300");
  });

  it("capped-v2: the token must supply maxSupply; mints beyond it are refused, burns make room", async () => {
    const typeId = "capped-v2";
    const complianceTemplateId = await api.publishComplianceTemplate({
      name: "Capped supply",
      description: "Max supply set per token",
      jurisdictions: [],
      modules: [{ typeId }],
      requiredControls: [typeId],
    });
    const missing = await api.call("POST", "/api/v2/tokens", {
      templateId: "deposit",
      name: "Capped without cap",
      symbol: "CAP0",
      decimals: 0,
      complianceTemplateId,
    });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: "COMPLIANCE_TEMPLATE_NOT_APPLICABLE", data: { complianceTemplateId } });
    expect(missing.body.data.issues.map((i: { path: string }) => i.path)).toEqual([
      `complianceConfigs.${typeId}.maxSupply`,
    ]);

    const token = await api.createToken({
      templateId: "deposit",
      name: "Capped supply",
      symbol: "CAP",
      decimals: 0,
      complianceTemplateId,
      complianceConfigs: { [typeId]: { maxSupply: "1000" } },
    });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params: { maxSupply: "1000" } }]);

    completed(await api.mint(token, [signer, ALICE], [900, 100]));
    await refused(token, await api.mint(token, [signer], [1]), typeId, "max supply 1000 exceeded");
    completed(await api.transfer(token, [ALICE], [5])); // transfers are not checked
    completed(await api.burn(token, [ALICE], [1]));
    await precheckAllows(token, { action: "mint", to: signer, amount: 1 });
    completed(await api.mint(token, [signer], [1]));
    expect((await api.token(token)).totalSupply).toBe("1000");
  });

  it("collateral-v2: mints need collateral attested by the token's oracle, at the configured ratio", async () => {
    const typeId = "collateral-v2";
    const params = { oracle: DAVE, ratioBps: 15_000 };
    const { token } = await tokenUnder("Collateralised", { modules: [{ typeId, params }] });
    const [module] = await modulesOf(token);
    expect(module).toEqual({ typeId, module: expect.any(String), params });

    await refused(token, await api.mint(token, [signer], [1]), typeId, "no collateral attested");
    // The oracle's attestation has no API route: DAVE (the oracle, an anvil account) sends it to the module.
    await api.sendAsAnvilAccount(DAVE, module.module, CollateralModuleAbi, "setCollateral", [token, 1500n, 0n]);
    await precheckRefuses(token, { action: "mint", to: signer, amount: 1001 }, typeId, "insufficient collateral");
    completed(await api.mint(token, [signer], [1000])); // 1500 of collateral at 150 % covers 1000
    await refused(token, await api.mint(token, [ALICE], [1]), typeId, "insufficient collateral");
    completed(await api.transfer(token, [ALICE], [10])); // transfers are not checked
    expect(await api.balances(token)).toEqual({ [lower(signer)]: "990", [lower(ALICE)]: "10" });
  });

  it("country-allow-list-v2: only recipients registered in a listed country receive", async () => {
    const typeId = "country-allow-list-v2";
    const { token } = await tokenUnder("Belgian holders", {
      modules: [{ typeId, params: { countries: [COUNTRY.BELGIUM] } }],
    });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params: { countries: [56] } }]);

    completed(await api.mint(token, [signer], [100]));
    completed(await api.transfer(token, [ALICE], [10]));
    await refused(token, await api.transfer(token, [BOB], [1]), typeId, "recipient country 840 not allowed");
    await refused(token, await api.mint(token, [DAVE], [1]), typeId, "recipient not registered");
    await precheckRefuses(token, { action: "mint", to: CAROL, amount: 1 }, typeId, "recipient country 276 not allowed");
  });

  it("country-block-list-v2: wallets registered in a listed country are refused; unregistered ones are not", async () => {
    const typeId = "country-block-list-v2";
    const { token } = await tokenUnder("No US holders", {
      modules: [{ typeId, params: { countries: [COUNTRY.UNITED_STATES] } }],
    });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params: { countries: [840] } }]);

    completed(await api.mint(token, [signer, DAVE], [100, 5]));
    completed(await api.transfer(token, [CAROL], [10]));
    await refused(token, await api.transfer(token, [BOB], [1]), typeId, "recipient country 840 blocked");
    await refused(token, await api.mint(token, [BOB], [1]), typeId, "recipient country 840 blocked");
    await precheckRefuses(token, { action: "transfer", to: BOB, amount: 1 }, typeId, "recipient country 840 blocked");
  });

  it("identity-allow-list-v2: only recipients whose registered identity is listed receive", async () => {
    const typeId = "identity-allow-list-v2";
    const identities = [identity[lower(signer)], identity[lower(ALICE)]];
    const { token } = await tokenUnder("Listed identities", { modules: [{ typeId, params: { identities } }] });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params: { identities } }]);

    completed(await api.mint(token, [signer], [100]));
    completed(await api.transfer(token, [ALICE], [10]));
    await refused(token, await api.transfer(token, [CAROL], [1]), typeId, "recipient identity not allowed");
    await refused(token, await api.mint(token, [DAVE], [1]), typeId, "recipient not registered");
    await precheckAllows(token, { action: "mint", to: ALICE, amount: 1 });
  });

  it("identity-block-list-v2: a wallet whose identity is listed is refused", async () => {
    const typeId = "identity-block-list-v2";
    const identities = [identity[lower(BOB)]];
    const { token } = await tokenUnder("Blocked identities", { modules: [{ typeId, params: { identities } }] });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params: { identities } }]);

    completed(await api.mint(token, [signer, DAVE], [100, 1]));
    completed(await api.transfer(token, [ALICE], [10]));
    await refused(token, await api.transfer(token, [BOB], [1]), typeId, "recipient identity blocked");
    await precheckRefuses(token, { action: "mint", to: BOB, amount: 1 }, typeId, "recipient identity blocked");
  });

  it("identity-verification-v2: the recipient must be registered and satisfy the claim-topic expression", async () => {
    const typeId = "identity-verification-v2";
    // "not KYC": any registered wallet without a KYC claim satisfies it (no route issues claims yet).
    const expression = [{ nodeType: "TOPIC", topic: "KYC" }, { nodeType: "NOT" }];
    const { token } = await tokenUnder("Registered, not KYC", { modules: [{ typeId, params: { expression } }] });
    // The chain keeps topic ids, not names: the params come back with the KYC topic's id.
    expect(await modulesOf(token)).toEqual([
      {
        typeId,
        module: expect.any(String),
        params: { expression: [{ nodeType: "TOPIC", topicId: topicIdHex("KYC") }, { nodeType: "NOT" }] },
      },
    ]);
    completed(await api.mint(token, [signer], [100]));
    completed(await api.transfer(token, [ALICE], [10]));
    await refused(token, await api.mint(token, [DAVE], [1]), typeId, "recipient not registered");
    await refused(token, await api.transfer(token, [DAVE], [1]), typeId, "recipient not registered");

    // The library's "KYC verified investors": nobody holds a KYC claim, so even the registered signer is refused.
    const kyc = await api.createToken({
      templateId: "deposit",
      name: "KYC only",
      symbol: "KYC",
      decimals: 0,
      complianceTemplateId: "kyc-verified-investors",
    });
    expect((await modulesOf(kyc)).map((m) => m.params)).toEqual([
      { expression: [{ nodeType: "TOPIC", topicId: topicIdHex("KYC") }] },
    ]);
    await refused(kyc, await api.mint(kyc, [signer], [1]), typeId, "recipient not verified");
    await precheckRefuses(kyc, { action: "mint", to: ALICE, amount: 1 }, typeId, "recipient not verified");
  });

  it("investor-count-v2: new holders beyond the total or their country's cap are refused; leaving frees a place", async () => {
    const typeId = "investor-count-v2";
    const params = { maxInvestors: 3, countries: [COUNTRY.GERMANY], countryLimits: [1] };
    const { token } = await tokenUnder("Few investors", { modules: [{ typeId, params }] });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params }]);

    completed(await api.mint(token, [signer], [100]));
    completed(await api.transfer(token, [CAROL], [10])); // the one German holder
    await refused(token, await api.transfer(token, [EVE], [10]), typeId, "max investors 1 reached for country 276");
    completed(await api.transfer(token, [ALICE], [10])); // the third holder
    await refused(token, await api.transfer(token, [BOB], [10]), typeId, "max investors 3 reached");
    await refused(token, await api.mint(token, [DAVE], [10]), typeId, "max investors 3 reached");
    completed(await api.transfer(token, [ALICE], [5])); // an existing holder may receive more
    expect((await api.token(token)).holderCount).toBe(3);

    completed(await api.burn(token, [ALICE], [15])); // ALICE leaves
    await precheckAllows(token, { action: "transfer", to: BOB, amount: 10 });
    completed(await api.transfer(token, [BOB], [10]));
    expect(await api.balances(token)).toEqual({ [lower(signer)]: "65", [lower(CAROL)]: "10", [lower(BOB)]: "10" });
  });

  it("time-lock-v2: received tokens stay locked for lockDuration before they can be transferred", async () => {
    const typeId = "time-lock-v2";
    const { token } = await tokenUnder("Locked an hour", { modules: [{ typeId, params: { lockDuration: 3600 } }] });
    expect(await modulesOf(token)).toEqual([{ typeId, module: expect.any(String), params: { lockDuration: 3600 } }]);

    completed(await api.mint(token, [signer], [100])); // mints are never refused
    await refused(token, await api.transfer(token, [ALICE], [10]), typeId, "amount exceeds unlocked balance 0");
    await api.advanceTime(3601);
    completed(await api.transfer(token, [ALICE], [10]));
    completed(await api.mint(token, [signer], [50])); // a new lot, locked again
    await precheckRefuses(
      token,
      { action: "transfer", to: ALICE, amount: 91 },
      typeId,
      "amount exceeds unlocked balance 90",
    );
    await precheckAllows(token, { action: "transfer", to: ALICE, amount: 90 });
    // ALICE's 10 received an hour ago are locked too.
    await precheckRefuses(
      token,
      { action: "transfer", from: ALICE, to: BOB, amount: 1 },
      typeId,
      "amount exceeds unlocked balance 0",
    );
  });

  it("transfer-approval-v2: each transfer needs an approver's prior approval of exactly it, used up by it", async () => {
    const typeId = "transfer-approval-v2";
    const params = { approvers: [DAVE], approvalValidity: 0 };
    const { token } = await tokenUnder("Approved transfers", { modules: [{ typeId, params }] });
    const [module] = await modulesOf(token);
    expect(module).toEqual({ typeId, module: expect.any(String), params });

    completed(await api.mint(token, [signer], [100])); // mints are not checked
    await refused(token, await api.transfer(token, [ALICE], [10]), typeId, "transfer not approved");
    // Approving has no API route: DAVE (the approver, an anvil account) approves on the module.
    await api.sendAsAnvilAccount(DAVE, module.module, TransferApprovalModuleAbi, "approveTransfer", [
      token,
      signer,
      ALICE,
      10n,
    ]);
    await precheckRefuses(token, { action: "transfer", to: ALICE, amount: 11 }, typeId, "transfer not approved");
    await precheckAllows(token, { action: "transfer", to: ALICE, amount: 10 });
    completed(await api.transfer(token, [ALICE], [10]));
    await refused(token, await api.transfer(token, [ALICE], [10]), typeId, "transfer not approved"); // used up
    expect(await api.balances(token)).toEqual({ [lower(signer)]: "90", [lower(ALICE)]: "10" });
  });

  it("legacy module set (v1): country-allow-list and investor-count under their v1 ids, not mixable with v2", async () => {
    const mixed = await api.call("POST", "/api/v2/settings/compliance-templates", {
      name: "Mixed",
      moduleSetVersion: 1,
      modules: [{ typeId: "country-allow-list", params: { countries: [56] } }, { typeId: "capped-v2" }],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.data.issues.map((i: { path: string }) => i.path)).toContain("modules.1.typeId");

    const countries = { countries: [COUNTRY.BELGIUM, COUNTRY.UNITED_STATES] };
    const count = { maxInvestors: 2, countries: [], countryLimits: [] };
    const { token, complianceTemplateId } = await tokenUnder("Legacy controls", {
      moduleSetVersion: 1,
      modules: [
        { typeId: "country-allow-list", params: countries },
        { typeId: "investor-count", params: count },
      ],
    });
    const template = await api.get(`/api/v2/settings/compliance-templates/${complianceTemplateId}`);
    expect(template.data).toMatchObject({ moduleSetVersion: 1, isDraft: false });
    const modules = await modulesOf(token);
    expect(Object.fromEntries(modules.map((m) => [m.typeId, m.params]))).toEqual({
      "country-allow-list": countries,
      "investor-count": count,
    });

    completed(await api.mint(token, [signer], [100]));
    completed(await api.transfer(token, [ALICE], [10]));
    await refused(
      token,
      await api.transfer(token, [CAROL], [1]),
      "country-allow-list",
      "recipient country 276 not allowed",
    );
    await refused(token, await api.transfer(token, [BOB], [1]), "investor-count", "max investors 2 reached");
    await precheckRefuses(token, { action: "mint", to: BOB, amount: 1 }, "investor-count", "max investors 2 reached");
  });
});
