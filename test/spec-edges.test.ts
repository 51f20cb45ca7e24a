// The spec's edges over HTTP against the real stack: a contract refusal a client can act on (dalpCode, retryable,
// suggestedAction), the onboarding codes (NOT_ONBOARDED, SYSTEM_NOT_CREATED) and the role-assignment lists.
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../plugins/access/api-key-store.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { createDepositToken, json, type TestStack } from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("the spec's edges", () => {
  let stack: TestStack;
  let op: Operator;
  let token: string;
  let signer: string;

  const post = (path: string, body: object, init: RequestInit & { key?: string | null } = {}) =>
    stack.api(path, {
      ...init,
      method: "POST",
      headers: { prefer: "wait=30", ...init.headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await organizationStack("Spec edges");
    op = operator(stack);
    token = await createDepositToken(stack, "Edges Deposit", "EDGE");
    signer = (await json(await stack.api("/api/user/assets"))).wallets[0];
  });
  afterAll(async () => {
    await op?.close();
    await stack?.stop();
  });

  it("a paused token's mint answers TOKEN_PAUSED with its dalpCode, retryable and suggestedAction", async () => {
    expect((await post(`/api/v2/tokens/${token}/pause`, {})).status).toBe(200);
    const refused = await post(`/api/v2/tokens/${token}/mint`, { recipients: [ALICE], amounts: ["1"] });
    const body = await json(refused);
    expect(refused.status, JSON.stringify(body)).toBe(409);
    expect(body).toMatchObject({
      code: "TOKEN_PAUSED",
      data: {
        dalpCode: "TOKEN_PAUSED",
        retryable: true,
        suggestedAction: expect.stringContaining("unpause"),
        contractError: { id: "TokenPaused", dalpCode: "TOKEN_PAUSED" },
      },
    });
  });

  it("a signed-in user without a PIN is NOT_ONBOARDED, the fix naming the step", async () => {
    const { email } = await op.person(stack.platform.credentials.organizationId, "owner", { password: "pw-edges" });
    const signIn = await stack.api("/api/v2/auth/sign-in", {
      key: null,
      method: "POST",
      body: JSON.stringify({ email, password: "pw-edges" }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith("svc_session="))!
      .split(";")[0];
    const write = await stack.api("/api/v2/tokens", {
      key: null,
      method: "POST",
      headers: { cookie },
      body: JSON.stringify({
        templateId: "deposit",
        name: "Not Onboarded",
        symbol: "NOB",
        walletVerification: { verificationType: "PINCODE", secretVerificationCode: "123456" },
      }),
    });
    const body = await json(write);
    expect(write.status, JSON.stringify(body)).toBe(403);
    expect(body).toMatchObject({
      code: "NOT_ONBOARDED",
      data: { id: "SVC-0010", missingStep: "pincode", fix: expect.stringContaining("set-pincode") },
    });
  });

  it("an organisation whose system was never requested is SYSTEM_NOT_CREATED", async () => {
    const organizationId = uuidv7();
    await op.db.platform
      .insertInto("organizations")
      .values({ id: organizationId, name: "No System", defaultChainId: stack.platform.credentials.chainId })
      .execute();
    const { userId } = await op.person(organizationId, "owner", { password: "pw-edges" });
    const { key } = await createApiKey(op.db.platform, { organizationId, userId, name: "edges", scope: "read" });
    const res = await stack.api("/api/v2/system/role-assignments", { key });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(403);
    expect(body).toMatchObject({ code: "SYSTEM_NOT_CREATED", data: { id: "SVC-0011" } });
  });

  it("lists the roles granted at the system's and the token's creation, filtered by account", async () => {
    const all = await json(await stack.api("/api/v2/system/role-assignments?page[limit]=200"));
    expect(all.data.length, JSON.stringify(all)).toBeGreaterThan(0);
    const held = all.data.map((a: { account: string; role: string }) => `${a.account.toLowerCase()} ${a.role}`);
    expect(held).toContain(`${signer.toLowerCase()} SYSTEM_MANAGER_ROLE`);
    expect(held).toContain(`${signer.toLowerCase()} SUPPLY_MANAGEMENT_ROLE`);
    expect(all.data.find((a: { contract: string }) => a.contract.toLowerCase() === token.toLowerCase())).toMatchObject({
      grantedAt: expect.any(String),
      grantedBy: expect.any(String),
      transactionHash: expect.stringMatching(/^0x/),
    });

    const mine = await json(await stack.api(`/api/v2/system/role-assignments?filter[account]=${signer}`));
    expect(mine.data.length).toBeGreaterThan(0);
    expect(mine.data.every((a: { account: string }) => a.account.toLowerCase() === signer.toLowerCase())).toBe(true);
    const none = await json(await stack.api(`/api/v2/system/role-assignments?filter[account]=${ALICE}`));
    expect(none).toMatchObject({ data: [], meta: { total: 0 } });

    const org = stack.platform.credentials.organizationId;
    const participant = await json(await stack.api(`/api/v2/participants/${org}/role-assignments`));
    expect(participant.data.map((a: { role: string }) => a.role)).toContain("SYSTEM_MANAGER_ROLE");
  });
});
