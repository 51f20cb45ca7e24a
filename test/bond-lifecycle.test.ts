// #5's end-to-end flow, over HTTP only against the real stack: a bond with maturity-redemption and
// historical-balances under a published compliance template with country-allow-list-v2 is created, minted,
// transferred, refused for a blocked country, matures and is redeemed.
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationStack } from "./support/shared-stack.ts";
import { json, type TestStack } from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"; // Belgium (56): allowed
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"; // United States (840): not allowed
const BELGIUM = 56;
const UNITED_STATES = 840;
const ONE = 10n ** 18n;

describe("a bond under a published compliance template, end to end over HTTP", () => {
  let stack: TestStack;
  let signer: string;
  let usdx: string;
  let bond: string;
  let complianceTemplateId: string;
  let maturityFeature: string;

  /** A mutation answered once COMPLETED (Prefer: wait), or the error envelope as it came. */
  async function call(method: string, path: string, body?: unknown) {
    const res = await stack.api(path, {
      method,
      headers: { prefer: "wait=60" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await json(res) };
  }
  async function write(method: string, path: string, body?: unknown) {
    const { status, body: answer } = await call(method, path, body);
    if (status !== 200 || answer.data?.status !== "COMPLETED") {
      throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(answer)}`);
    }
    return answer.data;
  }
  async function chainNow(): Promise<number> {
    const block = (await stack.rpc("eth_getBlockByNumber", ["latest", false])) as { timestamp: string };
    return Number(BigInt(block.timestamp));
  }

  beforeAll(async () => {
    stack = await organizationStack("bond-lifecycle", "clock-moving");
    const usd = await write("POST", "/api/v2/tokens", {
      templateId: "stablecoin",
      name: "US Dollar X",
      symbol: "USDX",
      decimals: 6,
    });
    usdx = usd.tokenAddress;
    signer = getAddress(
      (await json(await stack.api(`/api/v2/transaction-requests/${usd.transactionId}`))).data.fromAddress,
    );
    await write("POST", `/api/v2/tokens/${usdx}/mint`, {
      recipients: [signer],
      amounts: [String(1_000_000n * 10n ** 6n)],
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("publishes a compliance template allowing Belgian investors only", async () => {
    const created = await stack.api("/api/v2/settings/compliance-templates", {
      method: "POST",
      body: JSON.stringify({
        name: "Belgian investors",
        description: "Holders must be registered in Belgium",
        jurisdictions: ["BE"],
        modules: [{ typeId: "country-allow-list-v2", params: { countries: [BELGIUM] } }],
        requiredControls: ["country-allow-list-v2"],
      }),
    });
    expect(created.status).toBe(201);
    complianceTemplateId = (await json(created)).data.id;
    const published = await stack.api(`/api/v2/settings/compliance-templates/${complianceTemplateId}/publish`, {
      method: "PUT",
    });
    expect(published.status).toBe(200);
    expect((await json(published)).data.isDraft).toBe(false);
  });

  it("registers the identities of the signer, a Belgian and an American investor", async () => {
    for (const [wallet, country] of [
      [signer, BELGIUM],
      [ALICE, BELGIUM],
      [BOB, UNITED_STATES],
    ] as const) {
      const done = await write("POST", "/api/v2/system/identities", { wallet, country });
      expect(done).toMatchObject({ wallet, country });
    }
  });

  it("refuses a feature set that breaks the rules, naming the feature", async () => {
    const missing = await call("POST", "/api/v2/tokens", {
      templateId: "stablecoin",
      name: "Yield Coin",
      symbol: "YC",
      featureConfigs: {
        "fixed-treasury-yield": { rate: 500, interval: "MONTHLY", treasury: signer, denominationAsset: usdx },
      },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe("TOKEN_FEATURE_DEPENDENCY_MISSING");
    expect(missing.body.data).toMatchObject({
      featureId: "fixed-treasury-yield",
      requiredFeatureId: "historical-balances",
    });

    const fee = { mintFeeBps: 0, burnFeeBps: 0, transferFeeBps: 10, recipient: signer };
    const clash = await call("POST", "/api/v2/tokens", {
      templateId: "stablecoin",
      name: "Fee Coin",
      symbol: "FC",
      featureConfigs: { "transaction-fee": fee, "transaction-fee-accounting": fee },
    });
    expect(clash.status).toBe(422);
    expect(clash.body.code).toBe("TOKEN_FEATURES_INCOMPATIBLE");
    expect(clash.body.data.featureId).toBe("transaction-fee");

    const badParam = await call("POST", "/api/v2/tokens", {
      templateId: "bond",
      name: "Bad Bond",
      symbol: "BB",
      featureConfigs: { "maturity-redemption": { maturityDate: "soon", denominationAsset: usdx, treasury: signer } },
    });
    expect(badParam.status).toBe(400);
    expect(badParam.body.data.issues.map((i: { path: string }) => i.path)).toContain(
      "featureConfigs.maturity-redemption.maturityDate",
    );
  });

  it("creates the bond with its features and the template's compliance module", async () => {
    const maturityDate = new Date((await chainNow()) * 1000 + 3_600_000).toISOString();
    const done = await write("POST", "/api/v2/tokens", {
      templateId: "bond",
      name: "Green Bond 2030",
      symbol: "GB30",
      decimals: 18,
      featureConfigs: {
        "maturity-redemption": { maturityDate, denominationAsset: usdx, treasury: signer, faceValue: "100" },
      },
      complianceTemplateId,
    });
    bond = done.tokenAddress;

    const token = await json(await stack.api(`/api/v2/token/${bond}`));
    expect(token.data.features.map((f: { id: string }) => f.id)).toEqual([
      "historical-balances",
      "maturity-redemption",
    ]);
    const maturity = token.data.features[1];
    expect(maturity.config).toEqual({
      maturityDate: new Date(Math.floor(Date.parse(maturityDate) / 1000) * 1000).toISOString(),
      denominationAsset: usdx,
      treasury: signer,
      faceValue: "100",
    });
    maturityFeature = maturity.address;
    expect(token.data.compliance.modules).toEqual([
      expect.objectContaining({ typeId: "country-allow-list-v2", params: { countries: [BELGIUM] } }),
    ]);

    const features = await json(await stack.api(`/api/v2/token/${bond}/features`));
    expect(features.data).toEqual(token.data.features);
  });

  it("mints to the Belgian signer and transfers to the Belgian investor", async () => {
    await write("POST", `/api/v2/tokens/${bond}/mint`, { recipients: [signer], amounts: [String(10n * ONE)] });
    await write("POST", `/api/v2/tokens/${bond}/transfer`, { recipients: [ALICE], amounts: [String(2n * ONE)] });
    const token = await json(await stack.api(`/api/v2/token/${bond}`));
    expect(token.data.totalSupply).toBe(String(10n * ONE));
    expect(token.data.holderCount).toBe(2);
  });

  it("refuses a transfer and a mint to the American investor, naming the module and the reason", async () => {
    for (const [path, body] of [
      [`/api/v2/tokens/${bond}/transfer`, { recipients: [BOB], amounts: [String(ONE)] }],
      [`/api/v2/tokens/${bond}/mint`, { recipients: [BOB], amounts: [String(ONE)] }],
    ] as const) {
      const refused = await call("POST", path, body);
      expect(refused.status, path).toBe(422);
      expect(JSON.stringify(refused.body), path).toContain("country-allow-list-v2");
    }
  });

  it("matures, and the holder redeems for the face value in the denomination asset", async () => {
    await write("POST", `/api/v2/tokens/${usdx}/approvals`, { spender: maturityFeature, amount: String(10n ** 15n) });
    await stack.rpc("evm_increaseTime", [7200]);
    await stack.rpc("evm_mine");

    await write("POST", `/api/v2/tokens/${bond}/redemptions`, { amount: String(3n * ONE) });
    const token = await json(await stack.api(`/api/v2/token/${bond}`));
    expect(token.data.totalSupply).toBe(String(7n * ONE));
    const events = await json(await stack.api(`/api/v2/tokens/${bond}/events?filter[eventName]=Redeemed`));
    expect(events.data).toHaveLength(1);
    const values = Object.fromEntries(
      events.data[0].values.map((v: { name: string; value: string }) => [v.name, v.value]),
    );
    expect(values).toMatchObject({ amount: String(3n * ONE), payout: String(300n * 10n ** 6n) });
  });

  it("changes a governance parameter through PUT features/{featureId}", async () => {
    await write("PUT", `/api/v2/token/${bond}/features/maturity-redemption`, { parameters: { treasury: ALICE } });
    const features = await json(await stack.api(`/api/v2/token/${bond}/features`));
    expect(features.data[1].config.treasury).toBe(ALICE);

    const immutable = await call("PUT", `/api/v2/token/${bond}/features/historical-balances`, { parameters: {} });
    expect(immutable.status).toBe(422);
    expect(immutable.body.code).toBe("TOKEN_FEATURE_HAS_NO_PARAMETERS");
    const absent = await call("PUT", `/api/v2/token/${bond}/features/permit`, { parameters: {} });
    expect(absent.status).toBe(404);
    expect(absent.body.code).toBe("TOKEN_FEATURE_NOT_ATTACHED");
  });
});
