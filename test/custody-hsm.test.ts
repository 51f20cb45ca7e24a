// Custody in an HSM: a platform restarted with CUSTODY_PROVIDER=pkcs11 over a fresh SoftHSM2 token, with an
// activation quorum of 2. A new organisation's keys are generated in the token (sensitive, never extractable); its system deploys
// once two custodians activate its partition; its token and mint are signed there, every signature lands in the audit
// log, and the organisation has no seed in the database. A partition not active holds writes back.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { HDKey } from "@scure/bip32";
import { sql } from "kysely";
import pkcs11js from "pkcs11js";
import { type Address, createPublicClient, createWalletClient, getAddress, http, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IdentityAbi } from "../abis/Identity.ts";
import { SponsoringPaymasterFactoryAbi } from "../abis/SponsoringPaymasterFactory.ts";
import { TokenAbi } from "../abis/Token.ts";
import { WeightedMultisigAccountAbi } from "../abis/WeightedMultisigAccount.ts";
import { claimSigner } from "../domain/evm/claim-signature.ts";
import { addressKey } from "../domain/evm/identity-key.ts";
import type { ServedChain } from "../host/chain/served-chains.ts";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { unseal } from "../host/crypto/sealed.ts";
import { createConfiguredCustody } from "../host/custody/custody-provider.ts";
import { createApiKey, grantPlatformRole } from "../plugins/access/index.ts";
import { organisationPaymaster } from "../plugins/smart-wallets/wallet-chain.ts";
import { ROOT } from "../scripts/platform.ts";
import { ALICE, anvilAccount, apiFlows, BOB, CAROL, keyedApi } from "./support/api-flows.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { createTestToken, listTokenObjects, type TestToken } from "./support/softhsm.ts";
import { bootStack, json, stackChain, type TestStack } from "./support/stack.ts";

const PIN = { verificationType: "PINCODE", secretVerificationCode: "135790" };
const PRIMARY_PATH = "m/44'/60'/0'/0/0";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    // The supervisor releases a killed worker's jobs as it dies; lock recovery (8 s of silence here, 20 s by default)
    // is the fallback.
    stack = await bootStack({ WORKER_DEAD_AFTER_SECONDS: "8" });
    Object.assign(stack.env, hsm.env, { CUSTODY_ACTIVATION_QUORUM: "2", ACCOUNT_ABSTRACTION_ENABLED: "true" });
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
    // Nor may a key sign a write moving more than its limit (5 minted, the limit 4).
    const limit = (maxValue: string | null) =>
      ops.db.platform
        .updateTable("wallets")
        .set({ custodyMaxValue: maxValue })
        .where("address", "=", primary)
        .execute();
    await limit("4");
    const overLimit = await mint(BOB);
    expect(overLimit.status).toBe(409);
    expect(await json(overLimit)).toMatchObject({
      code: "HSM_MOFN_QUORUM_CLASSIFICATION_FAILED",
      data: { maxValue: "4" },
    });
    await limit(null);

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

  it("moves an organisation from software to the HSM with 100 mints in flight: each done once, old keys powerless", async () => {
    // The first start's organisation, in software custody; its owner is the stack's default key.
    const local = stack.platform.credentials.organizationId;
    const people = async (role: string, count: number) => {
      const keys: string[] = [];
      for (let i = 0; i < count; i++) {
        const { userId } = await ops.person(local, role, { password: "correct horse battery", pincode: "135790" });
        if (role === "member") await grantPlatformRole(ops.db.platform, userId, "platformOperator");
        keys.push(
          (await createApiKey(ops.db.platform, { organizationId: local, userId, name: role, scope: "read-write" })).key,
        );
      }
      return keys;
    };
    const custodians = await people("custodian", 2);
    const [operatorKey] = await people("member", 1); // a platform operator acting in the organisation
    const primary = () =>
      ops.db.platform
        .selectFrom("wallets")
        .select("address")
        .where("organizationId", "=", local)
        .where("derivationPath", "=", PRIMARY_PATH)
        .where("successorAddress", "is", null)
        .executeTakeFirstOrThrow();
    const oldPrimary = (await primary()).address;
    const localApi = apiFlows(stack); // the organisation owner's default key
    // With historical balances: a fixed yield schedule may pay on it.
    const moving = await localApi.createToken({
      templateId: "deposit",
      name: "Moving",
      symbol: "MOV",
      featureConfigs: { "historical-balances": {} },
    });
    // Powers of the old primary key besides roles: a management key on an identity it registered, the manager seat of
    // a contract identity it created, the ownership of the organisation's paymaster (made by its factory), and the
    // seats of a fixed yield schedule's owner and a token sale's issuer it created.
    const ownerOnly = await ops.keyFor(local, "owner");
    const client = createPublicClient({ chain: stackChain(stack), transport: http() });
    // Created while the other powers are (their writes are the same key's, queued alike).
    const now = Number((await client.getBlock()).timestamp);
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
    const seats = Promise.all([
      localApi
        .write("POST", "/api/v2/addons/fixed-yield-schedules", {
          tokenAddress: moving,
          rateBps: 100,
          interval: "DAILY",
          startDate: iso(now + 3600),
          endDate: iso(now + 3600 + 86_400),
          denominationAsset: moving,
        })
        .then((data) => getAddress(data.scheduleAddress)),
      localApi
        .write("POST", "/api/v2/addons/token-sales", {
          tokenAddress: moving,
          paymentAsset: moving,
          priceWad: String(10n ** 18n),
          hardCap: "10",
          startDate: iso(now),
          endDate: iso(now + 3600),
        })
        .then((data) => getAddress(data.saleAddress)),
    ]);
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    const identity = await localApi.registerIdentity(holder, 56);
    await localApi.write("POST", "/api/v2/system/entities", { contractAddress: moving });
    const madeIssuer = await localApi.call("POST", "/api/v2/system/claim-issuer"); // or it is one already
    expect(madeIssuer.status === 409 || madeIssuer.body.data?.status === "COMPLETED").toBe(true);
    const issuer = (await localApi.get("/api/v2/system/claim-issuer")).data;
    expect(issuer).toMatchObject({ canSignClaims: true });
    const manifest = JSON.parse(
      readFileSync(join(stack.dataDir, "deployments", `${stack.platform.credentials.chainId}.json`), "utf8"),
    );
    const funder = createWalletClient({ account: anvilAccount(6), chain: stackChain(stack), transport: http() });
    await client.waitForTransactionReceipt({
      hash: await funder.writeContract({
        address: manifest.paymasterFactory,
        abi: SponsoringPaymasterFactoryAbi,
        functionName: "createPaymaster",
        args: [oldPrimary as Address],
      }),
    });
    const paymaster = await client.readContract({
      address: manifest.paymasterFactory,
      abi: SponsoringPaymasterFactoryAbi,
      functionName: "getAddress",
      args: [oldPrimary as Address],
    });
    // A claim the old primary key signs, and a member's smart wallet whose one signer is the member's custody key.
    await localApi.write("POST", "/api/v2/system/topic-schemes", { name: "kyc", signature: "string level" });
    const claim = await localApi.write("POST", "/api/v2/system/identity-claims", { wallet: holder, topic: "kyc" });
    const walletOwner = await ops.member(local, "member", "Wallet owner");
    const policy = await localApi.call("PUT", "/api/v2/settings/executor-policy", { accountAbstractionEnabled: true });
    expect(policy.status).toBe(200);
    const created = await stack.api("/api/v2/smart-wallets", {
      method: "POST",
      headers: { prefer: "wait=90", "x-participant": walletOwner.userId },
      body: "{}",
    });
    const smartWallet = (await json(created)).data?.address as Address;
    expect(created.status).toBe(200);
    // The paymaster has no deposit: the wallet pays for its own operations.
    await funder.sendTransaction({ to: smartWallet, value: 10n ** 18n });
    const accountMint = async () => {
      const res = await stack.api(`/api/v2/tokens/${moving}/mint`, {
        method: "POST",
        headers: { "idempotency-key": "move-account-wallet" },
        body: JSON.stringify({ recipients: [ALICE], amounts: ["1"], accountWalletId: oldPrimary }),
      });
      const body = await json(res);
      return (body.transactionId ?? body.data?.transactionId ?? `${res.status} ${JSON.stringify(body)}`) as string;
    };
    const byAccount = await accountMint();
    const [schedule, sale] = await seats;
    const mint = async (i: number) => {
      const res = await stack.api(`/api/v2/tokens/${moving}/mint`, {
        method: "POST",
        headers: { "idempotency-key": `move-${i}` },
        body: JSON.stringify({ recipients: [ALICE], amounts: ["1"] }),
      });
      const body = await json(res);
      if (res.status >= 300) throw new Error(`mint ${i} answered ${res.status}: ${JSON.stringify(body)}`);
      return (body.transactionId ?? body.data?.transactionId) as string;
    };
    const ids = await Promise.all(Array.from({ length: 100 }, (_, i) => mint(i)));

    // An organisation's owner may not move it; the platform operator does.
    expect((await stack.api("/api/v2/custody/migrations", { method: "POST", key: ownerOnly })).status).toBe(403);
    const started = await stack.api("/api/v2/custody/migrations", { method: "POST", key: operatorKey });
    expect(started.status).toBe(201);
    const migrationId = (await json(started)).data.id;
    // The CLI answers the same move (started by the route, not a second one); it runs while the test goes on.
    const cli = promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "scripts/cli.ts", "custody", "migrate", "--org", local],
      {
        cwd: ROOT,
        env: stack.env,
      },
    ).then(
      ({ stdout }) => JSON.parse(stdout),
      (error: { stderr: string }) => ({ stderr: error.stderr }), // handled now: it may end before the test reads it
    );
    const migration = async () =>
      (await json(await stack.api(`/api/v2/custody/migrations/${migrationId}`, { key: operatorKey }))).data;

    // The HSM partition of the organisation is activated by its own custodians (quorum 2) for the writes after the move.
    const localPartition = (await json(await stack.api("/api/v2/custody/partitions", { key: custodians[0] }))).data[0];
    for (const key of custodians) {
      const approved = await stack.api(`/api/v2/custody/partitions/${localPartition.id}/activation-approvals`, {
        method: "POST",
        key,
        body: JSON.stringify({ walletVerification: PIN }),
      });
      expect(approved.status).toBe(200);
    }

    // Once switched, the 100 repeated with their Idempotency-Keys answer the first writes (none is written twice),
    // and a new mint is signed by the organisation's new key in the HSM.
    for (let i = 0; !["drain", "revocations", "done"].includes((await migration()).step); i++) {
      if (i > 1200) throw new Error(`the move is ${JSON.stringify(await migration())}`);
      expect((await migration()).status).not.toBe("failed");
      await sleep(50);
    }
    expect(await Promise.all(Array.from({ length: 100 }, (_, i) => mint(i)))).toEqual(ids);
    // So is one that named the old wallet by accountWalletId.
    expect(await accountMint()).toBe(byAccount);
    const newPrimary = (await primary()).address;
    expect(newPrimary).not.toBe(oldPrimary);
    const fresh = await mint(100);

    for (let i = 0; (await migration()).status === "running"; i++) {
      if (i > 1200) throw new Error(`the move is ${JSON.stringify(await migration())}`);
      await sleep(50);
    }
    const done = await migration();
    // (Or, had the move ended before the CLI started, that the organisation is in the HSM already.)
    const answer = await cli;
    if (answer.stderr === undefined) expect(answer).toMatchObject({ started: false, id: migrationId });
    else expect(answer.stderr).toContain("The organisation's keys are in the HSM already.");
    expect(done).toMatchObject({ status: "succeeded", step: "done", error: null });
    expect(done.keys).toContainEqual({ path: PRIMARY_PATH, oldAddress: oldPrimary, newAddress: newPrimary });
    const requests = () =>
      ops.db.platform
        .selectFrom("transactionRequests")
        .select(["id", "status", "fromAddress"])
        .where("id", "in", [...ids, fresh, byAccount])
        .execute();
    for (let i = 0; (await requests()).some((r) => r.status !== "COMPLETED"); i++) {
      if (i > 1200)
        throw new Error(`writes left: ${JSON.stringify((await requests()).filter((r) => r.status !== "COMPLETED"))}`);
      await sleep(50);
    }
    expect((await requests()).find((r) => r.id === fresh)?.fromAddress).toBe(newPrimary);
    expect(await client.readContract({ address: moving, abi: TokenAbi, functionName: "totalSupply" })).toBe(102n);

    // Every role the old key held (the system's and the token's) is now the new key's, and the old key has none.
    const { detail } = await ops.db.platform
      .withTables<{
        custodyMigrations: {
          id: string;
          detail: {
            roles: Record<string, { contract: Address; role: `0x${string}` }[]>;
            powers: Record<string, { kind: string; contract: Address; purpose?: number }[]>;
          };
        };
      }>()
      .selectFrom("custodyMigrations")
      .select("detail")
      .where("id", "=", migrationId)
      .executeTakeFirstOrThrow();
    const roles = detail.roles[oldPrimary];
    expect(roles.map((r) => r.contract)).toContain(moving.toLowerCase());
    const hasRole = parseAbi(["function hasRole(bytes32 role, address account) view returns (bool)"]);
    for (const { contract, role } of roles) {
      const holds = (account: string) =>
        client.readContract({
          address: contract,
          abi: hasRole,
          functionName: "hasRole",
          args: [role, account as Address],
        });
      expect([await holds(oldPrimary), await holds(newPrimary)]).toEqual([false, true]);
    }
    // So is every other power of every old key: identity keys, contract identities' manager, the paymaster.
    expect(detail.powers[oldPrimary]).toEqual(
      expect.arrayContaining([
        { kind: "identityKey", chainId: stackChain(stack).id, contract: identity, purpose: 1 },
        { kind: "identityManager", chainId: stackChain(stack).id, contract: expect.any(String) },
        { kind: "owner", chainId: stackChain(stack).id, contract: paymaster },
        { kind: "owner", chainId: stackChain(stack).id, contract: schedule },
        { kind: "tokenSaleIssuer", chainId: stackChain(stack).id, contract: sale },
      ]),
    );
    const powerAbi = parseAbi([
      "function keyHasPurpose(bytes32 key, uint256 purpose) view returns (bool)",
      "function manager() view returns (address)",
      "function owner() view returns (address)",
      "function issuer() view returns (address)",
      "function setSponsored(address account, bool sponsored)",
      "error OwnableUnauthorizedAccount(address account)",
    ]);
    for (const { oldAddress, newAddress } of done.keys as { oldAddress: Address; newAddress: Address }[]) {
      for (const power of detail.powers[oldAddress] ?? []) {
        const read = (functionName: "manager" | "owner" | "issuer") =>
          client.readContract({ address: power.contract, abi: powerAbi, functionName });
        if (power.kind === "identityKey") {
          const has = (account: Address) =>
            client.readContract({
              address: power.contract,
              abi: powerAbi,
              functionName: "keyHasPurpose",
              args: [addressKey(account), BigInt(power.purpose as number)],
            });
          // A claim key too, once the claims the old key signed are signed again by the new one.
          expect([await has(oldAddress), await has(newAddress)]).toEqual([false, true]);
        } else {
          const holder = await read(
            power.kind === "owner" ? "owner" : power.kind === "tokenSaleIssuer" ? "issuer" : "manager",
          );
          expect(holder.toLowerCase(), JSON.stringify(power)).toBe(newAddress);
        }
      }
    }
    // The API shows the schedule's and the sale's new holder once the index has the hand-overs; the sale's tokens still
    // come from the old key (its allowance).
    const seatHolders = async () => [
      (await localApi.get(`/api/v2/addons/fixed-yield-schedules/${schedule}`)).data.owner,
      (await localApi.get(`/api/v2/addons/token-sales/${sale}`)).data.issuer,
    ];
    for (let i = 0; (await seatHolders()).some((holder) => holder !== getAddress(newPrimary)); i++) {
      if (i > 600) throw new Error(`the API shows ${JSON.stringify(await seatHolders())}`);
      await sleep(50);
    }
    expect((await localApi.get(`/api/v2/addons/token-sales/${sale}`)).data.tokenSource).toBe(getAddress(oldPrimary));
    // The new key does what the old one could on the paymaster, and the platform finds it through the old key.
    const sponsor = (account: Address) =>
      client.simulateContract({
        account,
        address: paymaster,
        abi: powerAbi,
        functionName: "setSponsored",
        args: [ALICE, true],
      });
    await expect(sponsor(oldPrimary as Address)).rejects.toThrow(/OwnableUnauthorizedAccount/);
    await sponsor(newPrimary as Address);
    const custody = createConfiguredCustody(
      loadConfig(stack.env),
      ops.db.platform,
      loadMasterKey(loadConfig(stack.env)),
    );
    const owners = await custody.primaryAddresses(local);
    expect(owners).toEqual([newPrimary, oldPrimary]);
    const served = { chainId: stackChain(stack).id, client, deployment: manifest } as unknown as ServedChain;
    expect(await organisationPaymaster(served, owners)).toBe(paymaster);
    // The new key signs claims for the old key's issuer identity; the claim issued before the move is the new key's
    // signature now, and valid.
    expect((await localApi.get("/api/v2/system/claim-issuer")).data).toMatchObject({
      identity: issuer.identity,
      canSignClaims: true,
    });
    const [topic, , claimIssuer, signature, claimData] = await client.readContract({
      address: identity,
      abi: IdentityAbi,
      functionName: "getClaim",
      args: [claim.claimId],
    });
    expect(await claimSigner(identity, topic, claimData, signature)).toBe(getAddress(newPrimary));
    const valid = [identity, topic, signature, claimData] as const;
    expect(
      await client.readContract({ address: claimIssuer, abi: IdentityAbi, functionName: "isClaimValid", args: valid }),
    ).toBe(true);
    // The member's smart wallet is signed by the member's new key alone, with the old key's weight.
    const member = (done.keys as { oldAddress: string; newAddress: string }[]).find(
      (k) => k.oldAddress === walletOwner.wallet,
    );
    expect(
      await client.readContract({ address: smartWallet, abi: WeightedMultisigAccountAbi, functionName: "signers" }),
    ).toEqual([[getAddress(member?.newAddress ?? "")], [1n]]);
    expect(done.walletsLeft).toEqual([]);
    // The new mint's signature is the HSM key's.
    const log = await json(
      await stack.api(`/api/v2/custody/signatures?filter[requestId][eq]=${fresh}`, {
        key: await ops.keyFor(local, "auditor"),
      }),
    );
    expect(log.data.map((d: { keyLabel: string }) => d.keyLabel)).toEqual([`org/${local}/primary`]);
  });

  it("loses and duplicates no write when the worker is killed (SIGKILL) while the HSM signs", async () => {
    // Vault Bank signs in the HSM: its partition active again, its key operational (the test above left it expired).
    await ops.db.platform
      .updateTable("custodyPartitions")
      .set({ activeUntil: new Date(Date.now() + 600_000) })
      .where("id", "=", partitionId)
      .execute();
    const WRITES = 20;
    const mint = (i: number) =>
      stack.api(`/api/v2/tokens/${token}/mint`, {
        method: "POST",
        key: ownerKey,
        headers: { "idempotency-key": `hsm-crash-${i}` },
        body: JSON.stringify({ recipients: [CAROL], amounts: [String(i + 1)] }),
      });
    const requests = () =>
      ops.db.platform
        .selectFrom("transactionRequests")
        .select(["status", "nonce", "fromAddress"])
        .where("organizationId", "=", organizationId)
        .where("idempotencyKey", "like", "hsm-crash-%")
        .orderBy("nonce")
        .execute();
    const pidFile = join(stack.dataDir, "run", "worker.pid");
    // The file is gone between the worker's death and its restart.
    const workerPid = () =>
      existsSync(pidFile) ? (JSON.parse(readFileSync(pidFile, "utf8")).pid as number) : undefined;
    const signatures = async () =>
      (
        await ops.db.platform
          .selectFrom("custodySignatures")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("organizationId", "=", organizationId)
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await signatures());
    const inFlight = Promise.all(Array.from({ length: WRITES }, (_, i) => mint(i)));
    // Killed once the HSM has signed some of them and while others are still to be signed.
    for (let i = 0; Number(await signatures()) < before + 5; i++) {
      if (i > 4000) throw new Error("the HSM signed none of the mints");
      await sleep(5);
    }
    const killed = workerPid();
    process.kill(killed!, "SIGKILL");
    for (const res of await inFlight) expect([200, 202]).toContain(res.status);
    // The supervisor starts a new worker; the client repeats every write with its key.
    for (let i = 0; [killed, undefined].includes(workerPid()); i++) {
      if (i > 600) throw new Error("the worker was not restarted");
      await sleep(50);
    }
    for (const res of await Promise.all(Array.from({ length: WRITES }, (_, i) => mint(i))))
      expect([200, 202]).toContain(res.status);
    for (let i = 0; (await requests()).filter((r) => r.status === "COMPLETED").length < WRITES; i++) {
      if (i > 1200) throw new Error(`not all completed: ${JSON.stringify(await requests())}`);
      await sleep(50);
    }
    const rows = await requests();
    expect(rows).toHaveLength(WRITES);
    const nonces = rows.map((r) => Number(r.nonce));
    expect(nonces).toEqual(Array.from({ length: WRITES }, (_, i) => nonces[0] + i)); // no gap, no duplicate
    const client = createPublicClient({ chain: stackChain(stack), transport: http() });
    expect(await client.readContract({ address: token, abi: TokenAbi, functionName: "balanceOf", args: [CAROL] })).toBe(
      BigInt((WRITES * (WRITES + 1)) / 2),
    );
    expect(await client.getTransactionCount({ address: rows[0].fromAddress as Address })).toBe(nonces.at(-1)! + 1);
  });

  it("leaves no key material in the data directory, the database or the logs, and no HSM key can be read", async () => {
    // The software keys' secrets: the first organisation's seed (kept sealed after its move) and every key derived
    // from it, as bytes and as hex; and the HSM's user PIN.
    const local = stack.platform.credentials.organizationId;
    const { encryptedSeed } = await ops.db.platform
      .selectFrom("custodySeeds")
      .select("encryptedSeed")
      .where("organizationId", "=", local)
      .executeTakeFirstOrThrow();
    const seed = Buffer.from(unseal(encryptedSeed as string, loadMasterKey(loadConfig(stack.env))));
    const softwareKeys = await ops.db.platform
      .selectFrom("wallets")
      .select("derivationPath")
      .where("organizationId", "=", local)
      .where("custodyProvider", "=", "software")
      .execute();
    expect(softwareKeys.length).toBeGreaterThan(0);
    const secrets = [
      seed,
      ...softwareKeys.map((w) => Buffer.from(HDKey.fromMasterSeed(seed).derive(w.derivationPath).privateKey!)),
    ];
    const needles = [...secrets.flatMap((b) => [b, Buffer.from(b.toString("hex"))]), Buffer.from(hsm.userPin)];
    const found = (where: string, content: Buffer) =>
      needles.flatMap((needle, i) => (content.includes(needle) ? [`needle ${i} in ${where}`] : []));

    // Every file of the data directory: the database's cluster (a symlink to it when run as root), the logs, the run
    // files.
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        const stat = statSync(path, { throwIfNoEntry: false }); // follows the cluster's symlink
        if (stat?.isDirectory()) return files(path);
        return stat?.isFile() ? [path] : [];
      });
    const scanned = files(stack.dataDir);
    expect(scanned.some((file) => file.includes(`${join("postgres", "")}`) && file.endsWith("PG_VERSION"))).toBe(true);
    const hits = scanned.flatMap((file) => {
      const content = existsSync(file) ? readFileSync(file) : Buffer.alloc(0); // a WAL segment may be recycled meanwhile
      return found(file, content);
    });
    // The database dumped table by table (every schema: the platform's, the index's, the worker's).
    const tables = await sql<{ schema: string; name: string }>`
      select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`.execute(
      ops.db.platform,
    );
    for (const { schema, name } of tables.rows) {
      const dump = await sql<{ rows: string | null }>`
        select string_agg(t::text, chr(10)) as rows from ${sql.table(`${schema}.${name}`)} t`.execute(ops.db.platform);
      hits.push(...found(`${schema}.${name}`, Buffer.from(dump.rows[0]?.rows ?? "")));
    }
    expect(hits).toEqual([]);

    // The HSM refuses to hand out any private key's value, even to its logged-in user (pkcs11-tool cannot even try:
    // "reading private keys not (yet) supported"): each of its private keys answers CKR_ATTRIBUTE_SENSITIVE.
    const module = new pkcs11js.PKCS11();
    module.load(hsm.module);
    try {
      module.C_Initialize();
    } catch (error) {
      if ((error as { code?: number }).code !== pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED) throw error;
    }
    const slot = module.C_GetSlotList(true).find((s) => module.C_GetTokenInfo(s).label.trim() === hsm.label)!;
    const session = module.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
    try {
      try {
        module.C_Login(session, pkcs11js.CKU_USER, hsm.userPin);
      } catch (error) {
        if ((error as { code?: number }).code !== pkcs11js.CKR_USER_ALREADY_LOGGED_IN) throw error;
      }
      module.C_FindObjectsInit(session, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }]);
      const privateKeys = module.C_FindObjects(session, 1000);
      module.C_FindObjectsFinal(session);
      expect(privateKeys.length).toBeGreaterThanOrEqual(3); // Vault Bank's, and the moved organisation's
      for (const handle of privateKeys)
        expect(() => module.C_GetAttributeValue(session, handle, [{ type: pkcs11js.CKA_VALUE }])).toThrow(
          /CKR_ATTRIBUTE_SENSITIVE/,
        );
    } finally {
      module.C_CloseSession(session);
    }
  });
});
