// docs/recipes/verified-investors.md run as written against a booted stack: KYC topic, claim issuer, trusted issuer,
// identities and claims, a bond under the EU verified-investors template, mint, and a transfer the chain refuses.
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markedShBlock, type ShWorkDir, shWorkDir } from "./support/markdown-sh-block.ts";
import { bootStack, type TestStack } from "./support/stack.ts";

const MARKER = "<!-- recipe: the next sh block is run by test/recipe-verified-investors.test.ts -->";
const README_MARKER = "<!-- walkthrough: the next sh block is run by test/readme-walkthrough.test.ts -->";
const UNVERIFIED = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const ONE = 10n ** 18n;

describe("the recipe for issuing to verified investors", () => {
  let stack: TestStack;
  let workDir: ShWorkDir;
  beforeAll(async () => {
    stack = await bootStack();
    workDir = shWorkDir(stack, "recipe-verified-investors");
  });
  afterAll(async () => {
    await stack?.stop();
    workDir?.remove();
  });

  it("runs as written after README's first session: every write completes, then a transfer to an unverified wallet is refused", async () => {
    // The recipe says it runs after the first session too (its wallets and tokens are others).
    const first = await workDir.run(markedShBlock("README.md", README_MARKER));
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain("Euro Deposit");

    const result = await workDir.run(markedShBlock("docs/recipes/verified-investors.md", MARKER));
    expect(result.stderr).toBe("");
    expect(result.code, result.stdout).toBe(0);
    const bodies = result.bodies();

    // Every answer before the refused transfer is a success; writes answer COMPLETED.
    const refusedAt = bodies.findIndex((b) => b.code !== undefined);
    for (const body of bodies.slice(0, refusedAt)) {
      expect(body.code, JSON.stringify(body)).toBeUndefined();
      if (body.data?.transactionId) expect(body.data.status, JSON.stringify(body)).toBe("COMPLETED");
    }
    const kinds = bodies.map((b) => b.data?.kind).filter(Boolean);
    expect(kinds).toEqual(
      expect.arrayContaining(["topicScheme.register", "claimIssuer.create", "trustedIssuer.add", "claim.issue"]),
    );

    const bond = bodies.find((b) => b.data?.symbol === "GB30").data;
    expect(bond.features.map((f: { id: string }) => f.id)).toEqual(["historical-balances", "maturity-redemption"]);
    expect(bond.compliance.modules.map((m: { typeId: string }) => m.typeId).sort()).toEqual([
      "country-allow-list-v2",
      "identity-verification-v2",
    ]);

    const precheck = bodies[refusedAt - 1];
    expect(precheck.data).toMatchObject({
      allowed: false,
      refusal: {
        code: "COMPLIANCE_CHECK_FAILED",
        typeId: "identity-verification-v2",
        reason: "recipient not verified",
      },
    });
    const refused = bodies[refusedAt];
    expect(refused).toMatchObject({
      code: "COMPLIANCE_CHECK_FAILED",
      status: 422,
      data: {
        typeId: "identity-verification-v2",
        reason: "recipient not verified",
        contractError: { id: "ComplianceCheckFailed" },
        statusUrl: expect.stringMatching(/^\/v2\/transaction-requests\//),
      },
    });

    const holders = bodies[refusedAt + 1];
    expect(refusedAt + 2).toBe(bodies.length);
    expect(holders.data.map((h: { value: string }) => h.value)).toEqual([
      String(90n * ONE),
      String(50n * ONE),
      String(10n * ONE),
    ]);
    expect(holders.data.map((h: { account: { id: string } }) => getAddress(h.account.id))).not.toContain(UNVERIFIED);
  });
});
