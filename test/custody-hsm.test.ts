// Custody in an HSM: a platform restarted with CUSTODY_PROVIDER=pkcs11 over a fresh SoftHSM2 token, with an
// activation quorum of 2. A new organisation's keys are generated in the token (sensitive, never extractable); its system deploys
// once two custodians activate its partition; its token and mint are signed there, every signature lands in the audit
// log, and the organisation has no seed in the database. A partition not active holds writes back.
import { type Address, createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAbi } from "../abis/Token.ts";
import { createApiKey } from "../plugins/access/index.ts";
import { ALICE, BOB, keyedApi } from "./support/api-flows.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { createTestToken, listTokenObjects, type TestToken } from "./support/softhsm.ts";
import { bootStack, json, stackChain, type TestStack } from "./support/stack.ts";

const PIN = { verificationType: "PINCODE", secretVerificationCode: "135790" };

describe("custody in an HSM over PKCS#11 (SoftHSM2)", () => {
  let hsm: TestToken;
  let stack: TestStack;
  let ops: Operator;
  let organizationId: string;
  let ownerKey: string;
  let auditorKey: string;
  let custodianKeys: string[];
  let partitionId: string;
  let token: Address;
  const api = keyedApi(
    () => stack,
    () => ownerKey,
  );

  const approve = (key: string) =>
    stack.api(`/api/v2/custody/partitions/${partitionId}/activation-approvals`, {
      method: "POST",
      key,
      body: JSON.stringify({ walletVerification: PIN }),
    });
  const partition = async () =>
    (await json(await stack.api("/api/v2/custody/partitions", { key: auditorKey }))).data[0];

  beforeAll(async () => {
    hsm = createTestToken();
    process.env.SOFTHSM2_CONF = hsm.conf; // the operator below opens the same token from this process
    // The first start's local organisation keeps software custody (always active); the platform then moves to the HSM.
    stack = await bootStack();
    Object.assign(stack.env, hsm.env, { CUSTODY_ACTIVATION_QUORUM: "2" });
    await stack.restart();
    ops = operator(stack);
    // Its system deploys once two custodians have activated its partition.
    const ready = ops.organization("Vault Bank");
    for (;;) {
      const row = await ops.db.platform
        .selectFrom("organizations")
        .select("id")
        .where("name", "=", "Vault Bank")
        .executeTakeFirst();
      if (row) {
        organizationId = row.id;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    custodianKeys = [];
    for (const name of ["Cas", "Cleo"]) {
      const { userId } = await ops.person(organizationId, "custodian", {
        password: "correct horse battery",
        pincode: "135790",
      });
      const { key } = await createApiKey(ops.db.platform, { organizationId, userId, name, scope: "read-write" });
      custodianKeys.push(key);
    }
    auditorKey = await ops.keyFor(organizationId, "auditor");
    partitionId = (await partition()).id;
    for (const key of custodianKeys) expect((await approve(key)).status).toBe(200);
    expect(await partition()).toMatchObject({ state: "active", provider: "pkcs11", quorum: 2, approvals: [] });
    await ready;
    ownerKey = await ops.keyFor(organizationId, "owner");
  }, 180_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
    hsm?.remove();
  });

  it("creates a token and mints with keys generated inside the token, which never leave it", async () => {
    const created = await api.write("POST", "/api/v2/tokens", { templateId: "deposit", name: "Vault", symbol: "VLT" });
    token = created.tokenAddress as Address;
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

  it("holds a mint back until two custodians activate the partition, and refuses one an expired or wrong key", async () => {
    const owner = { key: ownerKey };
    expect(
      (await stack.api(`/api/v2/custody/partitions/${partitionId}/deactivate`, { method: "POST", ...owner })).status,
    ).toBe(200);
    const mint = (to: string) =>
      stack.api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        ...owner,
        body: JSON.stringify({ recipients: [to], amounts: ["5"] }),
      });
    const queued = await json(await mint(BOB));
    const request = () =>
      ops.db.platform
        .selectFrom("transactionRequests")
        .select(["status", "subStatus"])
        .where("id", "=", queued.transactionId)
        .executeTakeFirstOrThrow();
    for (let i = 0; (await request()).subStatus !== "AWAITING_CUSTODY_ACTIVATION"; i++) {
      if (i > 200) throw new Error(`the mint is ${JSON.stringify(await request())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // One custodian's approval (twice: counted once) is not the quorum: the mint still waits.
    expect((await approve(custodianKeys[0])).status).toBe(200);
    const once = await json(await approve(custodianKeys[0]));
    expect(once.data).toMatchObject({ state: "activating", approvals: [expect.anything()] });
    expect(await request()).toEqual({ status: "QUEUED", subStatus: "AWAITING_CUSTODY_ACTIVATION" });
    // A wrong PIN code counts for nothing.
    const wrong = { walletVerification: { ...PIN, secretVerificationCode: "000000" } };
    const refused = await stack.api(`/api/v2/custody/partitions/${partitionId}/activation-approvals`, {
      method: "POST",
      key: custodianKeys[1],
      body: JSON.stringify(wrong),
    });
    expect(refused.status).toBe(403);
    // The second custodian completes the quorum: the mint is signed and mined.
    expect((await json(await approve(custodianKeys[1]))).data.state).toBe("active");
    for (let i = 0; (await request()).status !== "COMPLETED"; i++) {
      if (i > 600) throw new Error(`the mint is ${JSON.stringify(await request())}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    // A treasury key may not mint: refused before anything is queued or signed.
    const primary = (
      await ops.db.platform
        .selectFrom("wallets")
        .select("address")
        .where("organizationId", "=", organizationId)
        .where("derivationPath", "=", "m/44'/60'/0'/0/0")
        .executeTakeFirstOrThrow()
    ).address;
    const classify = (to: "treasury" | "operational") =>
      ops.db.platform
        .updateTable("wallets")
        .set({ custodyClassification: to })
        .where("address", "=", primary)
        .execute();
    await classify("treasury");
    const misclassified = await mint(BOB);
    expect(misclassified.status).toBe(409);
    expect((await json(misclassified)).code).toBe("HSM_MOFN_QUORUM_CLASSIFICATION_FAILED");
    await classify("operational");

    // Once the activation has expired (its end moved to the past), a new mint is 408 at once.
    await ops.db.platform
      .updateTable("custodyPartitions")
      .set({ activeUntil: new Date(Date.now() - 1000) })
      .where("id", "=", partitionId)
      .execute();
    expect((await partition()).state).toBe("expired");
    const expired = await mint(BOB);
    expect(expired.status).toBe(408);
    expect((await json(expired)).code).toBe("HSM_MOFN_QUORUM_EXPIRED");
  });
});
