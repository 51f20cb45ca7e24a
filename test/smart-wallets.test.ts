// Smart wallets end to end on one booted stack (plugins/smart-wallets over plugins/bundler): a 2-of-3 weighted
// multisig (weights 1, 1, 2; threshold 2) is provisioned and deployed, then moves tokens with X-Executor:
// smart-wallet only once enough weight signs (the owner's weight-1 signature leaves it PENDING_APPROVAL, the
// weight-2 co-signer's completes it), sponsored by the organisation's paymaster (the wallet's ETH balance stays 0);
// each threshold error of the spec comes from the request that causes it.
import { type Address, createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOB } from "./support/api-flows.ts";
import { type Member, type Operator, operator } from "./support/organizations.ts";
import { secondHost } from "./support/second-host.ts";
import { bootStack, createDepositToken, json, stackChain, type TestStack, waitForTerminal } from "./support/stack.ts";

describe("smart wallets (X-Executor: smart-wallet, approvals, thresholds)", () => {
  let stack: TestStack;
  let ops: Operator;
  let owner: Member;
  let cosigner: Member;
  let heavy: Member;
  let wallet: Address;
  let token: Address;
  const chain = () => createPublicClient({ chain: stackChain(stack), transport: http() });

  async function call(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await stack.api(path, {
      method,
      key,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return answerOf(res);
  }

  async function answerOf(res: Response) {
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  async function waitForStatus(statusUrl: string, status: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const current = (await json(await stack.api(statusUrl))).data;
      if (current.status === status) return current;
      if (Date.now() > deadline) throw new Error(`Still ${current.status}: ${JSON.stringify(current)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const smartWrite = (key: string, method: string, path: string, body: unknown) =>
    call(key, method, path, body, { "x-executor": "smart-wallet" });

  beforeAll(async () => {
    // Validated under ERC-7562 as on any chain the platform does not run itself (the embedded default is unsafe):
    // the platform's own paymaster and wallets must pass the rules other bundlers apply.
    stack = await bootStack({ ACCOUNT_ABSTRACTION_ENABLED: "true", BUNDLER_VALIDATION: "safe" });
    ops = operator(stack);
    const org = stack.platform.credentials.organizationId;
    const policy = await call(stack.platform.credentials.apiKey, "PUT", "/api/v2/settings/executor-policy", {
      accountAbstractionEnabled: true,
    });
    expect(policy.body.data).toEqual({
      accountAbstractionEnabled: true,
      accountAbstractionAvailable: true,
      defaultExecutor: "eoa",
    });
    [owner, cosigner, heavy] = await Promise.all([
      ops.member(org, "admin", "Owner"),
      ops.member(org, "member", "Co-signer"),
      ops.member(org, "member", "Heavy co-signer"),
    ]);
    token = await createDepositToken(stack, "Wallet Deposit", "WDP");
  });
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  it("provisions one weighted multisig per participant, deployed by its job; a repeat returns the same wallet", async () => {
    const created = await call(
      owner.key,
      "POST",
      "/api/v2/smart-wallets",
      {
        validatorType: "weighted-multisig",
        signers: [
          { address: owner.wallet, weight: "1" },
          { address: cosigner.wallet, weight: "1" },
          { address: heavy.wallet, weight: "2" },
        ],
        threshold: "2",
        description: "Treasury",
      },
      { prefer: "wait=90" },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({
      validatorType: "weighted-multisig",
      threshold: "2",
      description: "Treasury",
      deployment: { status: "deployed", step: "deployed", failure: null },
    });
    wallet = created.body.data.address;
    expect(await chain().getCode({ address: wallet })).not.toBe("0x");

    const again = await call(owner.key, "POST", "/api/v2/smart-wallets", {});
    expect(again.status).toBe(200);
    expect(again.body.data.address).toBe(wallet);

    const signers = await call(owner.key, "GET", `/api/v2/smart-wallets/${wallet}/signers`);
    expect(signers.body.data).toMatchObject({ threshold: "2", totalWeight: "4" });
    expect(signers.body.data.signers.map((s: { weight: string }) => s.weight)).toEqual(["1", "1", "2"]);
    expect(signers.body.data.signers[2].participantId).toBe(heavy.userId);

    const gas = await call(owner.key, "GET", `/api/v2/smart-wallets/${wallet}/gas-status`);
    expect(gas.body.data).toMatchObject({ balance: "0", sponsored: true, zeroGas: false });
    const kinds = await call(stack.platform.credentials.apiKey, "GET", "/api/v2/participants/address-kinds");
    expect(kinds.body.data[wallet.toLowerCase()]).toBe("smart-wallet");
  });

  it("moves tokens only once enough weight signs: weight 1 waits in PENDING_APPROVAL, the weight-2 signature completes it, gas sponsored", async () => {
    const minted = await call(
      stack.platform.credentials.apiKey,
      "POST",
      `/api/v2/tokens/${token}/mint`,
      { recipients: [wallet], amounts: ["1000"] },
      { prefer: "wait=60" },
    );
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);

    const sent = await smartWrite(owner.key, "POST", `/api/v2/tokens/${token}/transfer`, {
      recipients: [BOB],
      amounts: ["100"],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const waiting = await waitForStatus(sent.body.statusUrl, "PENDING_APPROVAL");
    expect(waiting.fromAddress).toBe(wallet.toLowerCase());

    const approvals = await call(owner.key, "GET", `/api/v2/smart-wallets/${wallet}/approvals`);
    expect(approvals.body.data).toHaveLength(1);
    const [approval] = approvals.body.data;
    expect(approval).toMatchObject({
      transactionId: sent.body.transactionId,
      threshold: "2",
      weight: "1",
      status: "PENDING_APPROVAL",
    });
    expect(
      approval.signers.filter((s: { signed: boolean }) => s.signed).map((s: { address: string }) => s.address),
    ).toEqual([owner.wallet]);

    // Someone who holds no key of the wallet cannot sign.
    const stranger = await ops.member(stack.platform.credentials.organizationId, "member", "Stranger");
    const refused = await call(
      stranger.key,
      "POST",
      `/api/v2/smart-wallets/${wallet}/approvals/${approval.userOpHash}/sign`,
      {},
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("SMART_WALLET_SIGNER_REQUIRED");

    const signed = await call(
      heavy.key,
      "POST",
      `/api/v2/smart-wallets/${wallet}/approvals/${approval.userOpHash}/sign`,
      {},
    );
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.data.weight).toBe("3");
    const done = await waitForTerminal(stack, sent.body.statusUrl);
    expect(done.status, JSON.stringify(done)).toBe("COMPLETED");
    expect(done.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await call(owner.key, "GET", `/api/v2/smart-wallets/${wallet}/approvals`)).body.data).toEqual([]);

    const holders = await call(
      stack.platform.credentials.apiKey,
      "GET",
      `/api/v2/tokens/${token}/holders?filter[account]=${BOB}`,
    );
    expect(holders.body.data[0]).toMatchObject({ value: "100" });
    expect(await chain().getBalance({ address: wallet })).toBe(0n);
  });

  it("answers each threshold error from the request that causes it", async () => {
    const put = (key: string, address: string, threshold: unknown) =>
      call(key, "PUT", `/api/v2/smart-wallets/${address}/threshold`, { threshold });

    const unknown = await put(owner.key, "0x00000000000000000000000000000000000000aa", "2");
    expect([unknown.status, unknown.body.code]).toEqual([404, "SMART_WALLET_NOT_FOUND"]);
    const notOwner = await put(cosigner.key, wallet, "2");
    expect([notOwner.status, notOwner.body.code]).toEqual([403, "SMART_WALLET_OWNER_REQUIRED"]);
    for (const bad of ["0", "18446744073709551616", "-1", "1.5", "two"]) {
      const invalid = await put(owner.key, wallet, bad);
      expect([invalid.status, invalid.body.code], bad).toEqual([400, "SMART_WALLET_THRESHOLD_INVALID"]);
    }
    // Provisioning spends the organisation's gas: a plain member's wallet is provisioned for them by an admin.
    const single = await call(
      owner.key,
      "POST",
      "/api/v2/smart-wallets",
      {},
      { prefer: "wait=90", "x-participant": cosigner.userId },
    );
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect(single.body.data).toMatchObject({
      validatorType: "ecdsa",
      threshold: "1",
      signers: [{ address: cosigner.wallet, weight: "1" }],
    });
    const noMultisig = await put(cosigner.key, single.body.data.address, "1");
    expect([noMultisig.status, noMultisig.body.code]).toEqual([409, "SMART_WALLET_MULTISIG_VALIDATOR_REQUIRED"]);

    // Unreachable by the weights (total 4): accepted, and the operation fails when it executes.
    const unreachable = await put(owner.key, wallet, "18446744073709551615");
    expect(unreachable.status, JSON.stringify(unreachable.body)).toBe(202);
    await waitForStatus(unreachable.body.statusUrl, "PENDING_APPROVAL");
    const [pending] = (await call(owner.key, "GET", `/api/v2/smart-wallets/${wallet}/approvals`)).body.data;
    await call(heavy.key, "POST", `/api/v2/smart-wallets/${wallet}/approvals/${pending.userOpHash}/sign`, {});
    const failed = await waitForTerminal(stack, unreachable.body.statusUrl);
    expect(failed.status).toBe("FAILED");
    expect(failed.contractError).toMatchObject({ id: "ThresholdUnreachable" });

    // A reachable one goes through the same way.
    const raised = await put(owner.key, wallet, "3");
    await waitForStatus(raised.body.statusUrl, "PENDING_APPROVAL");
    const [next] = (await call(owner.key, "GET", `/api/v2/smart-wallets/${wallet}/approvals`)).body.data;
    await call(heavy.key, "POST", `/api/v2/smart-wallets/${wallet}/approvals/${next.userOpHash}/sign`, {});
    expect((await waitForTerminal(stack, raised.body.statusUrl)).status).toBe("COMPLETED");
    expect((await call(owner.key, "GET", `/api/v2/smart-wallets/${wallet}/signers`)).body.data.threshold).toBe("3");
  });

  it("X-Executor: smart-wallet without a wallet is refused before anything is queued", async () => {
    const nobody = await ops.member(stack.platform.credentials.organizationId, "admin", "No wallet");
    const member = await ops.member(stack.platform.credentials.organizationId, "member", "Plain member");
    const forbidden = await call(member.key, "PUT", "/api/v2/settings/executor-policy", {
      accountAbstractionEnabled: false,
    });
    expect(forbidden.status).toBe(403);
    const res = await smartWrite(nobody.key, "POST", `/api/v2/tokens/${token}/mint`, {
      recipients: [BOB],
      amounts: ["1"],
    });
    expect([res.status, res.body.code]).toEqual([409, "REQUEST_EXECUTOR_UNAVAILABLE"]);
  });

  it("runs writes that name no executor as the organisation's default executor, unless the body names an EOA", async () => {
    const admin = stack.platform.credentials.apiKey;
    const policy = (body: unknown) => call(admin, "PUT", "/api/v2/settings/executor-policy", body);
    // A second host on the database: both hold the EOA default (hosts keep it for a few seconds) before it changes.
    const replica = secondHost(stack);
    const transfer = JSON.stringify({ recipients: [BOB], amounts: ["1"] });
    const post = { method: "POST", headers: { "content-type": "application/json" }, body: transfer };
    for (const answer of [
      await call(owner.key, "POST", `/api/v2/tokens/${token}/transfer`, JSON.parse(transfer)),
      await answerOf(await replica.api(`/api/v2/tokens/${token}/transfer`, owner.key, post)),
    ]) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      expect((await waitForTerminal(stack, answer.body.statusUrl)).fromAddress).not.toBe(wallet.toLowerCase());
    }
    expect((await policy({ defaultExecutor: "smart-wallet" })).body.data).toMatchObject({
      accountAbstractionEnabled: true,
      defaultExecutor: "smart-wallet",
    });
    // No X-Executor: the owner's wallet sends it (weight 1 of threshold 3 signs: it waits for co-signers).
    const viaWallet = await call(owner.key, "POST", `/api/v2/tokens/${token}/transfer`, {
      recipients: [BOB],
      amounts: ["1"],
    });
    expect(viaWallet.status, JSON.stringify(viaWallet.body)).toBe(202);
    const waiting = await waitForStatus(viaWallet.body.statusUrl, "PENDING_APPROVAL");
    expect(waiting.fromAddress).toBe(wallet.toLowerCase());
    await call(owner.key, "POST", `/api/v2/transaction-requests/${viaWallet.body.transactionId}/cancel`, {});
    // The other host follows the change at once (the database notifies every host of it).
    const viaReplica = await answerOf(await replica.api(`/api/v2/tokens/${token}/transfer`, owner.key, post));
    expect(viaReplica.status, JSON.stringify(viaReplica.body)).toBe(202);
    expect((await waitForStatus(viaReplica.body.statusUrl, "PENDING_APPROVAL")).fromAddress).toBe(wallet.toLowerCase());
    await call(owner.key, "POST", `/api/v2/transaction-requests/${viaReplica.body.transactionId}/cancel`, {});
    await replica.stop();
    // forceEoa in the body wins over the default.
    const viaEoa = await call(admin, "POST", `/api/v2/tokens/${token}/mint`, {
      recipients: [BOB],
      amounts: ["1"],
      forceEoa: true,
    });
    expect(viaEoa.status, JSON.stringify(viaEoa.body)).toBe(202);
    expect((await waitForTerminal(stack, viaEoa.body.statusUrl)).status).toBe("COMPLETED");
    // Forbidding smart wallets makes the EOAs the default again; smart-wallet cannot be the default meanwhile.
    expect((await policy({ accountAbstractionEnabled: false })).body.data.defaultExecutor).toBe("eoa");
    const refused = await policy({ defaultExecutor: "smart-wallet" });
    expect([refused.status, refused.body.code]).toEqual([403, "X_EXECUTOR_AA_DISABLED_FOR_ORG"]);
    await policy({ accountAbstractionEnabled: true });
  });
});
