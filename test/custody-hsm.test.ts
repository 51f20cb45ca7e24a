// Custody in an HSM: a platform started with CUSTODY_PROVIDER=pkcs11 over a fresh SoftHSM2 token. A new
// organisation's keys are generated in the token (sensitive, never extractable), its system, token and mint are
// signed there, every signature lands in the audit log, and the organisation has no seed in the database.
import { type Address, createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAbi } from "../abis/Token.ts";
import { ALICE, keyedApi } from "./support/api-flows.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { createTestToken, listTokenObjects, type TestToken } from "./support/softhsm.ts";
import { bootStack, json, stackChain, type TestStack } from "./support/stack.ts";

describe("custody in an HSM over PKCS#11 (SoftHSM2)", () => {
  let hsm: TestToken;
  let stack: TestStack;
  let ops: Operator;
  let organizationId: string;
  let ownerKey: string;
  let auditorKey: string;
  const api = keyedApi(
    () => stack,
    () => ownerKey,
  );

  beforeAll(async () => {
    hsm = createTestToken();
    process.env.SOFTHSM2_CONF = hsm.conf; // the operator below opens the same token from this process
    stack = await bootStack(hsm.env);
    ops = operator(stack);
    organizationId = await ops.organization("Vault Bank");
    ownerKey = await ops.keyFor(organizationId, "owner");
    auditorKey = await ops.keyFor(organizationId, "auditor");
  }, 180_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  it("creates a token and mints with keys generated inside the token, which never leave it", async () => {
    const created = await api.write("POST", "/api/v2/tokens", { templateId: "deposit", name: "Vault", symbol: "VLT" });
    const token = created.tokenAddress as Address;
    const minted = await api.write("POST", `/api/v2/tokens/${token}/mint`, { recipients: [ALICE], amounts: ["7"] });
    const client = createPublicClient({ chain: stackChain(stack), transport: http() });
    expect(await client.readContract({ address: token, abi: TokenAbi, functionName: "balanceOf", args: [ALICE] })).toBe(
      7n,
    );

    // The organisation's keys, as pkcs11-tool lists them: private, sensitive, never extractable.
    const objects = listTokenObjects(hsm).split(/\n(?=\S)/);
    const privateKeys = objects.filter((o) => o.startsWith("Private Key") && o.includes(`org/${organizationId}/`));
    expect(privateKeys.map((o) => /label:\s+(\S+)/.exec(o)?.[1])).toEqual(
      expect.arrayContaining([`org/${organizationId}/primary`, `org/${organizationId}/member-1`]),
    );
    for (const key of privateKeys) expect(key).toMatch(/Access:\s+sensitive, always sensitive, never extractable/);

    // Every signature of the mint is in the audit log, readable by the auditor.
    const log = await stack.api(`/api/v2/custody/signatures?filter[requestId][eq]=${minted.transactionId}`, {
      key: auditorKey,
    });
    expect(log.status).toBe(200);
    const { data } = await json(log);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      requestId: minted.transactionId,
      keyLabel: `org/${organizationId}/primary`,
      kind: "transaction",
      caller: "worker:send-transaction",
    });
    expect(data[0].digest).toMatch(/^0x[0-9a-f]{64}$/);

    // The organisation has no seed: nothing of its keys is in the database.
    const seed = await ops.db.platform
      .selectFrom("custodySeeds")
      .select(["provider", "encryptedSeed"])
      .where("organizationId", "=", organizationId)
      .executeTakeFirstOrThrow();
    expect(seed).toEqual({ provider: "pkcs11", encryptedSeed: null });
  });
});
